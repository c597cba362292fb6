"""Western: natal, synastry, composite, returns, progressions, transits and their pictures."""
