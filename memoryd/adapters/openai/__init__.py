"""The OpenAI-compatible wing: chat and embeddings against any such endpoint, errors classified once."""
