"""Helpers for testing and benchmarking halluforge without real model servers.

:mod:`halluforge.testing.openai_stub` is an OpenAI-compatible echo server with scripted faults.
Nothing here is imported by the library itself.
"""
