"""Tracing at the process edge: an OpenTelemetry SDK provider exporting over OTLP, when configured.

Only ``memoryd serve`` and ``memoryd worker`` call this. The SDK and the exporter come with the
``tracing`` extra and are imported only when ``tracing.enabled``; everything else in memoryd uses
the OpenTelemetry API, whose calls are no-ops until a provider is set here.
"""

from __future__ import annotations

from collections.abc import Callable

from opentelemetry import trace

from memoryd.config import TracingSettings


def configure_tracing(settings: TracingSettings) -> Callable[[], None]:
    """Set the global tracer provider (when enabled); returns what flushes and stops it at exit."""
    if not settings.enabled:
        return lambda: None
    try:
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as exc:
        raise SystemExit("tracing.enabled needs the tracing extra: pip install 'memoryd[tracing]'") from exc
    provider = TracerProvider(resource=Resource.create({"service.name": settings.service_name}))
    exporter = OTLPSpanExporter(endpoint=settings.otlp_endpoint, insecure=settings.insecure)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    return provider.shutdown
