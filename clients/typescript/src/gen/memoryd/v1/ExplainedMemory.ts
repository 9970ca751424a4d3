// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * ExplainedMemory says what became of one memory a traced Recall was asked about.
 */
export interface ExplainedMemory {
  'memoryId'?: (string);
  'outcome'?: (string);
}

/**
 * ExplainedMemory says what became of one memory a traced Recall was asked about.
 */
export interface ExplainedMemory__Output {
  'memoryId': (string);
  'outcome': (string);
}
