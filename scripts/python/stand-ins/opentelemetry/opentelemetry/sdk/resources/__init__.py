# The Pulumi SDK imports this only to start tracing (TRACEPARENT set).
from opentelemetry import StandInOnly

raise StandInOnly("opentelemetry.sdk.resources (TRACEPARENT is set)")
