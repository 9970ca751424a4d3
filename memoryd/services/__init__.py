"""Use cases. They depend on ``memoryd.core`` only and receive ports through constructors."""
