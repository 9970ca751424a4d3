"""Test helpers shipped with memoryd, for our suite and for integrators' own tests."""
