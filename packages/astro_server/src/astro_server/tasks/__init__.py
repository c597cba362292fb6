"""taskiq broker and task functions, shared by the API process and ``astro-server worker``."""
