"""What the calculation routes share: the route declaration (calculation.py: one call per
route, its docstring the how-to), birth subjects (subject.py), chart pictures (pictures.py), the
interpretations and sensitivity options (interpretations.py, sensitivity.py) and small request
helpers (routing.py). HTTP edge code.
"""
