"""Small helpers shared by the blog and search apps (no Django models, no I/O)."""
