"""One blueprint per tag group; handlers are thin: parse -> service -> respond."""
