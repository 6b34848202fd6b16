"""Stand-in for OpenTelemetry (see ../pyproject.toml): imports resolve, nothing is traced."""


class StandInOnly(RuntimeError):
    """Raised where real OpenTelemetry would start tracing."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what}: this Python runtime has a do-nothing OpenTelemetry stand-in "
            "(pulumi-certreseller scripts/python/stand-ins/opentelemetry); unset TRACEPARENT "
            "or install the real opentelemetry-api and opentelemetry-sdk"
        )
