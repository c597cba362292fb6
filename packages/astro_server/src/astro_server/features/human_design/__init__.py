"""Human Design: the bodygraph chart, the composite of two charts, transits and the picture."""
