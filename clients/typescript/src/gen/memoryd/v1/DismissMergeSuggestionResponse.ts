// Original file: ../../proto/memoryd/v1/graph.proto


export interface DismissMergeSuggestionResponse {
}

export interface DismissMergeSuggestionResponse__Output {
}
