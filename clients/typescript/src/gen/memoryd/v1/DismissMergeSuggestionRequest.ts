// Original file: ../../proto/memoryd/v1/graph.proto


export interface DismissMergeSuggestionRequest {
  'suggestionId'?: (string);
}

export interface DismissMergeSuggestionRequest__Output {
  'suggestionId': (string);
}
