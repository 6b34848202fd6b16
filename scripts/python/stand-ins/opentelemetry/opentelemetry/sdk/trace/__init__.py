class TracerProvider:
    """Named in a type annotation at import; never made while tracing is off."""

    def shutdown(self) -> None:
        return None
