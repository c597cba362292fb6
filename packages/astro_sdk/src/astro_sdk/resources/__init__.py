"""Resources: one module per tag group, each with a sync class, its async twin and the
``Operation`` entries it calls."""
