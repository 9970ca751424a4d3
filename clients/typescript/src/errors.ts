/** memoryd's errors: one class per status a caller handles differently, the status details read. */

import * as grpc from "@grpc/grpc-js";
import * as protobuf from "protobufjs";

/** What a refusal's standard status details say (`grpc-status-details-bin`), read for the caller. */
export interface StatusDetails {
  /** The request field an INVALID_ARGUMENT is about (`google.rpc.BadRequest`). */
  field?: string;
  /** The code a refusal opens with, e.g. "SCOPE_MISMATCH" (`google.rpc.ErrorInfo`, domain "memoryd"). */
  reason?: string;
  /** How long to wait before a retry, when the server said (`google.rpc.RetryInfo`). */
  retryAfterMs?: number;
}

/** A call failed; `code` is the gRPC status, `details` the server's message (it names the field). */
export class MemorydError extends Error {
  readonly field?: string;
  readonly reason?: string;
  readonly retryAfterMs?: number;

  constructor(
    readonly code: grpc.status,
    readonly details: string,
    found: StatusDetails = {},
  ) {
    super(`${grpc.status[code]}: ${details}`);
    this.name = new.target.name;
    this.field = found.field;
    this.reason = found.reason;
    this.retryAfterMs = found.retryAfterMs;
  }
}
/** The request was wrong; `details` names the field. Nothing was stored. */
export class InvalidArgument extends MemorydError {}
/** No such id, or not visible to the caller. */
export class NotFound extends MemorydError {}
/** Not the caller's to change, or the key's role does not allow the call. */
export class PermissionDenied extends MemorydError {}
/** A request id or message id reused for another request. */
export class AlreadyExists extends MemorydError {}
/** The state refuses the call (a budget, another embedding model). */
export class FailedPrecondition extends MemorydError {}
/** A concurrent change won (a compare-and-swap): read again and retry. */
export class Aborted extends MemorydError {}
/** A rate limit or a size limit. */
export class ResourceExhausted extends MemorydError {}
/** No key, an unknown one, or a revoked one. */
export class Unauthenticated extends MemorydError {}
/** The daemon (or what it needs) cannot answer now: retried by the client before it reaches you. */
export class Unavailable extends MemorydError {}

const BY_STATUS: Partial<Record<grpc.status, new (code: grpc.status, details: string, found?: StatusDetails) => MemorydError>> = {
  [grpc.status.INVALID_ARGUMENT]: InvalidArgument,
  [grpc.status.NOT_FOUND]: NotFound,
  [grpc.status.PERMISSION_DENIED]: PermissionDenied,
  [grpc.status.ALREADY_EXISTS]: AlreadyExists,
  [grpc.status.FAILED_PRECONDITION]: FailedPrecondition,
  [grpc.status.ABORTED]: Aborted,
  [grpc.status.RESOURCE_EXHAUSTED]: ResourceExhausted,
  [grpc.status.UNAUTHENTICATED]: Unauthenticated,
  [grpc.status.UNAVAILABLE]: Unavailable,
};

/** google.rpc's status and the three details memoryd sends, as protobufjs reads them (from google/rpc/*.proto). */
const RPC = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: { fields: { type_url: { type: "string", id: 1 }, value: { type: "bytes", id: 2 } } },
            Duration: { fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } } },
          },
        },
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: "int32", id: 1 },
                message: { type: "string", id: 2 },
                details: { rule: "repeated", type: "google.protobuf.Any", id: 3 },
              },
            },
            BadRequest: {
              fields: { field_violations: { rule: "repeated", type: "FieldViolation", id: 1 } },
              nested: { FieldViolation: { fields: { field: { type: "string", id: 1 }, description: { type: "string", id: 2 } } } },
            },
            ErrorInfo: { fields: { reason: { type: "string", id: 1 }, domain: { type: "string", id: 2 } } },
            RetryInfo: { fields: { retry_delay: { type: "google.protobuf.Duration", id: 1 } } },
          },
        },
      },
    },
  },
});

/** The status details a failed call carries (none: an empty object). */
export function statusDetails(err: grpc.ServiceError): StatusDetails {
  const raw = err.metadata?.get("grpc-status-details-bin")[0];
  if (!(raw instanceof Buffer)) return {};
  const found: StatusDetails = {};
  const options = { longs: Number, defaults: true };
  const Status = RPC.lookupType("google.rpc.Status");
  const status = Status.toObject(Status.decode(raw), options);
  for (const detail of status.details as { type_url: string; value: Uint8Array }[]) {
    const kind = detail.type_url.slice(detail.type_url.lastIndexOf("/") + 1);
    if (!["google.rpc.BadRequest", "google.rpc.ErrorInfo", "google.rpc.RetryInfo"].includes(kind)) continue;
    const type = RPC.lookupType(kind);
    const message = type.toObject(type.decode(detail.value), options);
    if (kind === "google.rpc.BadRequest") found.field = message.field_violations[0]?.field;
    if (kind === "google.rpc.ErrorInfo") found.reason = message.reason;
    if (kind === "google.rpc.RetryInfo") found.retryAfterMs = message.retry_delay.seconds * 1000 + message.retry_delay.nanos / 1e6;
  }
  return found;
}

/** The error class of a failed call's status, with its details read. */
export function fromServiceError(err: grpc.ServiceError): MemorydError {
  const Kind = BY_STATUS[err.code] ?? MemorydError;
  return new Kind(err.code, err.details, statusDetails(err));
}
