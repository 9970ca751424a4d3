/**
 * memoryd's TypeScript client: typed calls over @grpc/grpc-js, the tenant and key given once.
 *
 * Every call carries the tenant (`x-tenant-id`) and the key (`authorization: Bearer`) as metadata
 * and a deadline; only UNAVAILABLE is retried, with full-jitter exponential backoff (a Memorize
 * gets a request id when it has none, so its retry cannot store twice); errors arrive as classes,
 * one per status a caller handles differently, `details` naming the field. Message types are
 * generated from the protos (`npm run gen`), field names in camelCase.
 */

import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import * as path from "node:path";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import { fromServiceError, type MemorydError } from "./errors";
import { checked } from "./fields";
import type { ProtoGrpcType as ConversationProto } from "./gen/conversation";
import type { ProtoGrpcType as GraphProto } from "./gen/graph";
import type { ProtoGrpcType as JobsProto } from "./gen/jobs";
import type { ProtoGrpcType as KeysProto } from "./gen/keys";
import type { KeyServiceClient } from "./gen/memoryd/v1/KeyService";
import type { WhoAmIResponse__Output } from "./gen/memoryd/v1/WhoAmIResponse";
import type { Job__Output } from "./gen/memoryd/v1/Job";
import type { JobEvent__Output } from "./gen/memoryd/v1/JobEvent";
import type { JobServiceClient } from "./gen/memoryd/v1/JobService";
import type { JobState } from "./gen/memoryd/v1/JobState";
import type { ProtoGrpcType as ProfileProto } from "./gen/profile";
import type { Profile__Output } from "./gen/memoryd/v1/Profile";
import type { ProfileServiceClient } from "./gen/memoryd/v1/ProfileService";
import type { AssertFactRequest } from "./gen/memoryd/v1/AssertFactRequest";
import type { AssertFactResponse__Output } from "./gen/memoryd/v1/AssertFactResponse";
import type { ExplainFactResponse__Output } from "./gen/memoryd/v1/ExplainFactResponse";
import type { GraphServiceClient } from "./gen/memoryd/v1/GraphService";
import type { SearchGraphRequest } from "./gen/memoryd/v1/SearchGraphRequest";
import type { SearchGraphResponse__Output } from "./gen/memoryd/v1/SearchGraphResponse";
import type { ProtoGrpcType as MemoryProto } from "./gen/memory";
import type { AppendMessagesResponse__Output } from "./gen/memoryd/v1/AppendMessagesResponse";
import type { ConversationEvent__Output } from "./gen/memoryd/v1/ConversationEvent";
import type { ConversationOptions } from "./gen/memoryd/v1/ConversationOptions";
import type { ConversationServiceClient } from "./gen/memoryd/v1/ConversationService";
import type { ConversationSummary__Output } from "./gen/memoryd/v1/ConversationSummary";
import type { FeedbackResponse__Output } from "./gen/memoryd/v1/FeedbackResponse";
import type { FeedbackSignal } from "./gen/memoryd/v1/FeedbackSignal";
import type { GetContextResponse__Output } from "./gen/memoryd/v1/GetContextResponse";
import type { Memory__Output } from "./gen/memoryd/v1/Memory";
import type { MemoryHistoryEvent__Output } from "./gen/memoryd/v1/MemoryHistoryEvent";
import type { MemoryInput } from "./gen/memoryd/v1/MemoryInput";
import type { MemorizeResponse__Output } from "./gen/memoryd/v1/MemorizeResponse";
import type { MemoryServiceClient } from "./gen/memoryd/v1/MemoryService";
import type { MessageInput } from "./gen/memoryd/v1/MessageInput";
import type { RecallFilter } from "./gen/memoryd/v1/RecallFilter";
import type { RecallHit__Output } from "./gen/memoryd/v1/RecallHit";
import type { RecallRequest } from "./gen/memoryd/v1/RecallRequest";
import type { UpdateMemoryRequest } from "./gen/memoryd/v1/UpdateMemoryRequest";

export type {
  ConversationEvent__Output as ConversationEvent,
  ConversationSummary__Output as ConversationSummary,
  Job__Output as Job,
  JobEvent__Output as JobEvent,
  Memory__Output as Memory,
  MemoryHistoryEvent__Output as MemoryHistoryEvent,
  RecallHit__Output as RecallHit,
  MemoryInput,
  MessageInput,
};

/** How the protos are loaded: the generated types assume exactly these options. */
export const LOADER_OPTIONS: protoLoader.Options = {
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
};

export {
  Aborted,
  AlreadyExists,
  FailedPrecondition,
  fromServiceError,
  InvalidArgument,
  MemorydError,
  NotFound,
  PermissionDenied,
  ResourceExhausted,
  statusDetails,
  Unauthenticated,
  Unavailable,
} from "./errors";
export type { StatusDetails } from "./errors";

export interface ClientOptions {
  /** The tenant; optional when `apiKey` is given (a key names its tenant). */
  tenant?: string;
  apiKey?: string;
  /** Each call's deadline (default 10 s). */
  timeoutMs?: number;
  /** Attempts after the first when the answer is UNAVAILABLE (default 3). */
  retries?: number;
  /** The first retry waits up to this long, doubling (default 200 ms). */
  backoffMs?: number;
  /** TLS (default: plaintext, as a loopback daemon serves). */
  credentials?: grpc.ChannelCredentials;
  /** Where `memoryd/v1/*.proto` live (default: those a packed client carries, else the repository's `proto/`). */
  protoRoot?: string;
  /** Called before each retry (attempt 1, 2…) with the UNAVAILABLE error: for logs and metrics. */
  onRetry?: (attempt: number, error: MemorydError) => void;
}

type Unary<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<Res>,
) => grpc.ClientUnaryCall;

/** Blocking-free calls to memoryd's archive and working memory; `close()` when done. */
export class MemoryClient {
  private readonly memory: MemoryServiceClient;
  private readonly conversations: ConversationServiceClient;
  private readonly graph: GraphServiceClient;
  private readonly profiles: ProfileServiceClient;
  private readonly jobs: JobServiceClient;
  private readonly keys: KeyServiceClient;
  private readonly definition: protoLoader.PackageDefinition;
  private readonly metadata = new grpc.Metadata();
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly onRetry?: (attempt: number, error: MemorydError) => void;

  constructor(target = "127.0.0.1:50051", options: ClientOptions = {}) {
    if (!options.tenant && !options.apiKey) {
      throw new Error("tenant is required without an apiKey (a key names its tenant)");
    }
    if (options.tenant) this.metadata.set("x-tenant-id", options.tenant);
    if (options.apiKey) this.metadata.set("authorization", `Bearer ${options.apiKey}`);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 3;
    this.backoffMs = options.backoffMs ?? 200;
    this.onRetry = options.onRetry;
    const root = options.protoRoot ?? defaultProtoRoot();
    const files = [
      "memoryd/v1/memory.proto",
      "memoryd/v1/conversation.proto",
      "memoryd/v1/graph.proto",
      "memoryd/v1/profile.proto",
      "memoryd/v1/jobs.proto",
      "memoryd/v1/keys.proto",
    ];
    const definition = protoLoader.loadSync(files, { ...LOADER_OPTIONS, includeDirs: [root] });
    this.definition = definition;
    const loaded = grpc.loadPackageDefinition(definition) as unknown as MemoryProto &
      ConversationProto &
      GraphProto &
      ProfileProto &
      JobsProto &
      KeysProto;
    const credentials = options.credentials ?? grpc.credentials.createInsecure();
    this.memory = new loaded.memoryd.v1.MemoryService(target, credentials);
    this.conversations = new loaded.memoryd.v1.ConversationService(target, credentials, {
      channelOverride: this.memory.getChannel() as grpc.Channel,
    });
    this.graph = new loaded.memoryd.v1.GraphService(target, credentials, {
      channelOverride: this.memory.getChannel() as grpc.Channel,
    });
    this.profiles = new loaded.memoryd.v1.ProfileService(target, credentials, {
      channelOverride: this.memory.getChannel() as grpc.Channel,
    });
    this.jobs = new loaded.memoryd.v1.JobService(target, credentials, {
      channelOverride: this.memory.getChannel() as grpc.Channel,
    });
    this.keys = new loaded.memoryd.v1.KeyService(target, credentials, {
      channelOverride: this.memory.getChannel() as grpc.Channel,
    });
  }

  /** Store one memory (`fields`: MemoryInput's others, e.g. tags, scope, salience). */
  async memorize(
    agentId: string,
    content: string,
    fields: Omit<MemoryInput, "content"> = {},
    opts: { endUserId?: string; requestId?: string } = {},
  ): Promise<MemorizeResponse__Output> {
    const request = {
      agentId,
      endUserId: opts.endUserId ?? "",
      memory: checked(this.definition, "MemoryInput", { ...fields, content }, "", ["endUserId", "requestId"]),
      requestId: opts.requestId ?? randomUUID().replace(/-/g, ""), // a retry must not store twice
    };
    return this.call(this.memory.Memorize.bind(this.memory) as Unary<typeof request, MemorizeResponse__Output>, request);
  }

  /** Store up to 1,000 memories (`items`: MemoryInput each), all or nothing; one result per item. */
  async memorizeBatch(
    agentId: string,
    items: MemoryInput[],
    opts: { endUserId?: string; requestId?: string; skipDeduplication?: boolean } = {},
  ): Promise<MemorizeResponse__Output[]> {
    const request = checked(this.definition, "MemorizeBatchRequest", {
      agentId,
      endUserId: opts.endUserId ?? "",
      items,
      skipDeduplication: opts.skipDeduplication ?? false,
      requestId: opts.requestId ?? randomUUID().replace(/-/g, ""), // all or nothing, and once
    });
    const reply = await this.call(
      this.memory.MemorizeBatch.bind(this.memory) as Unary<typeof request, { results: MemorizeResponse__Output[] }>,
      request,
    );
    return reply.results;
  }

  /** Which recalled memories (id → used) the runtime used; how many signals were recorded (a retry counts once). */
  async autoFeedback(
    agentId: string,
    used: Record<string, boolean>,
    opts: { endUserId?: string; requestId?: string } = {},
  ): Promise<number> {
    const request = {
      agentId,
      endUserId: opts.endUserId ?? "",
      results: Object.entries(used).map(([id, wasUsed]) => ({ id, used: wasUsed })),
      requestId: opts.requestId ?? randomUUID().replace(/-/g, ""),
    };
    const reply = await this.call(this.memory.AutoFeedback.bind(this.memory) as Unary<typeof request, { recorded: number }>, request);
    return reply.recorded;
  }

  /** The best hits, best first (`fields`: RecallRequest's others, e.g. endUserId, filter, minScore). */
  async recall(agentId: string, query: string, fields: Omit<RecallRequest, "agentId" | "query"> = {}): Promise<RecallHit__Output[]> {
    const request = checked(this.definition, "RecallRequest", { ...fields, agentId, query });
    const reply = await this.call(this.memory.Recall.bind(this.memory) as Unary<RecallRequest, { hits: RecallHit__Output[] }>, request);
    return reply.hits;
  }

  /** One visible memory. */
  async get(agentId: string, memoryId: string, endUserId = ""): Promise<Memory__Output> {
    const request = { agentId, memoryId, endUserId };
    const reply = await this.call(this.memory.GetMemory.bind(this.memory) as Unary<typeof request, { memory: Memory__Output }>, request);
    return reply.memory;
  }

  /** Every visible memory, oldest first, fetched a page at a time (`filter`: e.g. `{ pinnedOnly: true }`). */
  async *list(agentId: string, pageSize = 100, endUserId = "", filter: RecallFilter = {}): AsyncGenerator<Memory__Output> {
    let pageToken = "";
    do {
      const request = checked(this.definition, "ListMemoriesRequest", { agentId, endUserId, pageSize, pageToken, filter });
      const page = await this.call(
        this.memory.ListMemories.bind(this.memory) as Unary<typeof request, { memories: Memory__Output[]; nextPageToken: string }>,
        request,
      );
      yield* page.memories;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** Change a memory the agent may modify (`fields`: UpdateMemoryRequest's optional ones; unset ones stay). */
  async update(
    agentId: string,
    memoryId: string,
    fields: Omit<UpdateMemoryRequest, "agentId" | "memoryId" | "endUserId">,
    endUserId = "",
  ): Promise<Memory__Output> {
    const request = checked(this.definition, "UpdateMemoryRequest", { ...fields, agentId, memoryId, endUserId });
    const reply = await this.call(this.memory.UpdateMemory.bind(this.memory) as Unary<typeof request, { memory: Memory__Output }>, request);
    return reply.memory;
  }

  /** Delete a memory for good (the caller must be allowed to modify it); resolves to its id. */
  async forget(agentId: string, memoryId: string, endUserId = ""): Promise<string> {
    const request = { agentId, memoryId, endUserId };
    const reply = await this.call(this.memory.Forget.bind(this.memory) as Unary<typeof request, { memoryId: string }>, request);
    return reply.memoryId;
  }

  /** Make a superseded or archived memory active again (operators; what superseded it stays, both kept). */
  async restore(agentId: string, memoryId: string, endUserId = ""): Promise<Memory__Output> {
    const request = { agentId, memoryId, endUserId };
    const reply = await this.call(this.memory.RestoreMemory.bind(this.memory) as Unary<typeof request, { memory: Memory__Output }>, request);
    return reply.memory;
  }

  /** A visible memory's history, oldest first: created, updated (with what changed), merged, superseded, restored, feedback. */
  async history(agentId: string, memoryId: string, endUserId = ""): Promise<MemoryHistoryEvent__Output[]> {
    const request = { agentId, memoryId, endUserId };
    const reply = await this.call(
      this.memory.GetMemoryHistory.bind(this.memory) as Unary<typeof request, { events: MemoryHistoryEvent__Output[] }>,
      request,
    );
    return reply.events;
  }

  /**
   * Say whether a memory helped (`signal` by label or short name: "useful", "not_useful", "wrong",
   * "correction"); with a correction, `correction` is stored as the right fact and supersedes it.
   */
  feedback(
    agentId: string,
    memoryId: string,
    signal: FeedbackSignal | Lowercase<string>,
    opts: { correction?: string; endUserId?: string; requestId?: string } = {},
  ): Promise<FeedbackResponse__Output> {
    const request = checked(this.definition, "FeedbackRequest", {
      agentId,
      memoryId,
      signal, // checked: an unknown name was sent as 0 and refused as "signal: is required"
      correction: opts.correction ?? "",
      endUserId: opts.endUserId ?? "",
      requestId: opts.requestId ?? randomUUID().replace(/-/g, ""), // a retried correction must not store twice
    });
    return this.call(this.memory.Feedback.bind(this.memory) as Unary<typeof request, FeedbackResponse__Output>, request);
  }

  /** Append turns to a conversation (idempotent per message id); `options` overrides the agent's policy for it. */
  appendMessages(
    agentId: string,
    conversationId: string,
    messages: MessageInput[],
    opts: { endUserId?: string; contextWindowTokens?: number; options?: ConversationOptions } = {},
  ): Promise<AppendMessagesResponse__Output> {
    const request = checked(this.definition, "AppendMessagesRequest", {
      agentId,
      conversationId,
      messages,
      endUserId: opts.endUserId ?? "",
      contextWindowTokens: opts.contextWindowTokens ?? 0,
      options: opts.options,
    });
    return this.call(this.conversations.AppendMessages.bind(this.conversations) as Unary<typeof request, AppendMessagesResponse__Output>, request);
  }

  /** What to send the model now, within the window. */
  getContext(agentId: string, conversationId: string, contextWindowTokens: number, endUserId = ""): Promise<GetContextResponse__Output> {
    const request = { agentId, conversationId, contextWindowTokens, endUserId };
    return this.call(this.conversations.GetContext.bind(this.conversations) as Unary<typeof request, GetContextResponse__Output>, request);
  }

  /** Compact now, whatever the threshold; resolves to the job's id (the same state gives the same job). */
  async compact(agentId: string, conversationId: string, endUserId = ""): Promise<string> {
    const request = { agentId, conversationId, endUserId };
    const reply = await this.call(this.conversations.Compact.bind(this.conversations) as Unary<typeof request, { jobId: string }>, request);
    return reply.jobId;
  }

  /** The session is over: summarise the whole tail and file it into the archive; resolves to the job's id. */
  async endSession(agentId: string, conversationId: string, endUserId = ""): Promise<string> {
    const request = { agentId, conversationId, endUserId };
    const reply = await this.call(this.conversations.EndSession.bind(this.conversations) as Unary<typeof request, { jobId: string }>, request);
    return reply.jobId;
  }

  /** The agent's conversations with the contact (`allContacts`: every contact's, operator keys), latest first. */
  async *listConversations(
    agentId: string,
    opts: { endUserId?: string; allContacts?: boolean; pageSize?: number } = {},
  ): AsyncGenerator<ConversationSummary__Output> {
    let pageToken = "";
    do {
      const request = { agentId, endUserId: opts.endUserId ?? "", allContacts: opts.allContacts ?? false, pageSize: opts.pageSize ?? 50, pageToken };
      const page = await this.call(
        this.conversations.ListConversations.bind(this.conversations) as Unary<
          typeof request,
          { conversations: ConversationSummary__Output[]; nextPageToken: string }
        >,
        request,
      );
      yield* page.conversations;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** A conversation's compaction events (`fromStart`: the stored ones first), live, until `timeoutMs` passes. */
  async *watchConversation(
    agentId: string,
    conversationId: string,
    opts: { endUserId?: string; fromStart?: boolean; timeoutMs?: number } = {},
  ): AsyncGenerator<ConversationEvent__Output> {
    const request = { agentId, conversationId, endUserId: opts.endUserId ?? "", fromStart: opts.fromStart ?? false };
    const stream = this.conversations.WatchConversation(request, this.metadata, { deadline: this.deadline(opts.timeoutMs) });
    yield* events<ConversationEvent__Output>(stream);
  }

  /** The tenant, role, key id, pinned agent and scope the daemon sees these calls as (a start-up check). */
  async whoAmI(): Promise<WhoAmIResponse__Output> {
    const request = {};
    return this.call(this.keys.WhoAmI.bind(this.keys) as Unary<typeof request, WhoAmIResponse__Output>, request);
  }

  /** The agent's current profile (document, revision, token count, the prompt block to cache). */
  async getProfile(agentId: string): Promise<Profile__Output> {
    const request = { agentId };
    const reply = await this.call(this.profiles.GetProfile.bind(this.profiles) as Unary<typeof request, { profile: Profile__Output }>, request);
    return reply.profile;
  }

  /**
   * Append a line to a section (or `## Pinned`), or remove one; the profile after the edit. Compare-and-swap on
   * the revision: without `expectedRevision` the current one is read first; a concurrent edit is `Aborted`.
   */
  async editProfile(
    agentId: string,
    line: string,
    opts: { section?: string; pinned?: boolean; remove?: boolean; expectedRevision?: number } = {},
  ): Promise<Profile__Output> {
    const section = opts.section ?? "Notes";
    const pinned = opts.pinned ?? false;
    const edit = opts.remove
      ? { removeLine: { section: pinned ? "" : section, line, pinned } }
      : { append: { section, line, pinned } };
    const expectedRevision = opts.expectedRevision ?? (await this.getProfile(agentId)).revision;
    const request = { agentId, expectedRevision, ...edit };
    const reply = await this.call(this.profiles.EditProfile.bind(this.profiles) as Unary<typeof request, { profile: Profile__Output }>, request);
    return reply.profile;
  }

  /** Assert `subject —predicate→ object` with its sentence (admin role); an earlier fact it contradicts ends. */
  assertFact(
    subject: string,
    predicate: string,
    object: string,
    fact: string,
    fields: Omit<AssertFactRequest, "subject" | "predicate" | "object" | "fact"> = {},
  ): Promise<AssertFactResponse__Output> {
    const request = checked(this.definition, "AssertFactRequest", {
      ...fields,
      subject,
      predicate,
      object,
      fact,
      requestId: fields.requestId || randomUUID().replace(/-/g, ""), // a retry counts one mention
    });
    return this.call(this.graph.AssertFact.bind(this.graph) as Unary<typeof request, AssertFactResponse__Output>, request);
  }

  /** The graph's facts valid now (or `asOf`), best first, and the block the agent would see. */
  searchGraph(
    agentId: string,
    query: string,
    fields: Omit<SearchGraphRequest, "agentId" | "query"> = {},
  ): Promise<SearchGraphResponse__Output> {
    const request = checked(this.definition, "SearchGraphRequest", { ...fields, agentId, query });
    return this.call(this.graph.SearchGraph.bind(this.graph) as Unary<typeof request, SearchGraphResponse__Output>, request);
  }

  /** A visible fact with its sources, the facts it replaced and the one that replaced it. */
  explainFact(agentId: string, factId: string, endUserId = ""): Promise<ExplainFactResponse__Output> {
    const request = { agentId, factId, endUserId };
    return this.call(this.graph.ExplainFact.bind(this.graph) as Unary<typeof request, ExplainFactResponse__Output>, request);
  }

  /** A background job's record (Compact, EndSession and the reviews answer with its id): state, attempts, result. */
  async getJob(jobId: string): Promise<Job__Output> {
    const request = { jobId };
    const reply = await this.call(this.jobs.GetJob.bind(this.jobs) as Unary<typeof request, { job: Job__Output }>, request);
    return reply.job;
  }

  /** The tenant's jobs, newest first (`kind` e.g. "compact", `state` e.g. "JOB_STATE_FAILED", `agentId`). */
  async *listJobs(opts: { kind?: string; state?: JobState; agentId?: string; pageSize?: number } = {}): AsyncGenerator<Job__Output> {
    let pageToken = "";
    do {
      const request = checked(this.definition, "ListJobsRequest", {
        kind: opts.kind ?? "",
        state: opts.state ?? "JOB_STATE_UNSPECIFIED",
        agentId: opts.agentId ?? "",
        pageSize: opts.pageSize ?? 50,
        pageToken,
      });
      const page = await this.call(
        this.jobs.ListJobs.bind(this.jobs) as Unary<typeof request, { jobs: Job__Output[]; nextPageToken: string }>,
        request,
      );
      yield* page.jobs;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /**
   * A job's events from its first one, then live ones, until it settles (succeeded, failed, dead) or `timeoutMs`
   * passes: without a running worker a job stays queued, and `getJob` tells where it stands.
   */
  async *watchJob(jobId: string, opts: { timeoutMs?: number } = {}): AsyncGenerator<JobEvent__Output> {
    yield* events<JobEvent__Output>(this.jobs.WatchJob({ jobId }, this.metadata, { deadline: this.deadline(opts.timeoutMs) }));
  }

  /** Run a failed or dead job again from attempt 1 (operators); `FailedPrecondition` in any other state. */
  async retryJob(jobId: string): Promise<Job__Output> {
    const request = { jobId };
    const reply = await this.call(this.jobs.RetryJob.bind(this.jobs) as Unary<typeof request, { job: Job__Output }>, request);
    return reply.job;
  }

  /** Close the channel (every service shares it). */
  close(): void {
    this.memory.close();
  }

  private deadline(timeoutMs?: number): Date {
    return new Date(Date.now() + (timeoutMs ?? this.timeoutMs));
  }

  private async call<Req, Res>(method: Unary<Req, Res>, request: Req): Promise<Res> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await new Promise<Res>((resolve, reject) => {
          const deadline = new Date(Date.now() + this.timeoutMs);
          method(request, this.metadata, { deadline }, (err, reply) => (err || reply === undefined ? reject(err) : resolve(reply)));
        });
      } catch (err) {
        const failed = err as grpc.ServiceError;
        if (failed.code !== grpc.status.UNAVAILABLE || attempt >= this.retries) throw fromServiceError(failed);
        this.onRetry?.(attempt + 1, fromServiceError(failed));
        await new Promise((wake) => setTimeout(wake, Math.random() * this.backoffMs * 2 ** attempt));
      }
    }
  }
}

/** The protos a packed client carries (`npm pack` copies them in), else the repository's beside it. */
function defaultProtoRoot(): string {
  const packed = path.resolve(__dirname, "..", "proto");
  return existsSync(packed) ? packed : path.resolve(__dirname, "..", "..", "..", "proto");
}

/** A watch stream's events until it ends; its deadline ends it quietly, any other failure is thrown as memoryd's. */
async function* events<Event>(stream: grpc.ClientReadableStream<unknown>): AsyncGenerator<Event> {
  try {
    for await (const reply of stream) yield (reply as { event: Event }).event;
  } catch (err) {
    const failed = err as grpc.ServiceError;
    if (failed.code !== grpc.status.DEADLINE_EXCEEDED) throw fromServiceError(failed);
  } finally {
    stream.cancel();
  }
}
