def extract(carrier, context=None):
    return None
