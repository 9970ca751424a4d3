"""The gRPC transport: the only package that imports grpc and the generated stubs."""
