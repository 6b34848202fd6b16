def set_tracer_provider(provider) -> None:
    return None
