"""Benchmarks that print figures (run each as a script: ``.venv/bin/python bench/<name>.py``)."""
