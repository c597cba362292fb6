"""Resources: one module per tag group, each with the ``Operation`` entries it calls, its async
class (written by hand: the one source) and the sync twin ``scripts/unasync.py`` generates from
it at the end of the module."""
