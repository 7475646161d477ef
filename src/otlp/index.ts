/** OTLP: the span schema, OTLP/JSON and protobuf readers, the GenAI view and its dialect readers, the receiver. */
export { otlpSpanSchema, otlpEventSchema, OtlpInputError, type OtlpSpan, type OtlpEvent, type OtlpLogEvent } from './schema.js';
export { anyValue, spansOfRequest, logEventsOfRequest, isOtlpDocument, parseOtlpJson } from './json.js';
export { decodeOtlpProtobuf, decodeOtlpLogsProtobuf } from './protobuf.js';
export { joinLogEvents } from './logs.js';
export { readGenAi, type GenAiSpan, type GenAiMessage, type GenAiOperation } from './genai.js';
export { genAiView, dialectOf, DIALECTS, type Dialect } from './view.js';
export { startOtlpReceiver, type OtlpReceiver, type OtlpReceiverOptions } from './receiver.js';
