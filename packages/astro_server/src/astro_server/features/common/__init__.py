"""What the calculation routes share: birth subjects (subject.py), chart pictures (pictures.py),
the interpretations option (interpretations.py) and small routing helpers (routing.py). HTTP
edge code.
"""
