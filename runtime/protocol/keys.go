package protocol

// Method names of §4 (v2) and of v1.
const (
	MethodNegotiate       = "negotiate"
	MethodGetProviderInfo = "get_provider_info"
	MethodListTools       = "list_tools"
	MethodExecuteTool     = "execute_tool"
	MethodGetOperation    = "get_operation"
	MethodCancelOperation = "cancel_operation"
)

// Request keys.
const (
	KeyConsumerVersions     = "consumer_versions"
	KeyConsumerCapabilities = "consumer_capabilities"
	KeyProtocolVersion      = "protocol_version"
	KeySessionToken         = "session_token"
	KeyRequestID            = "request_id"
	KeyDeadlineAtMs         = "deadline_at_ms"
	KeyToolName             = "tool_name"
	KeyArgs                 = "args"
	KeyResumeToken          = "resume_token"
	KeyOperationID          = "operation_id"
)

// Response keys.
const (
	KeyStatus         = "status"
	KeyData           = "data"
	KeyErrorCode      = "error_code"
	KeyErrorMessage   = "error_message"
	KeyRetryable      = "retryable"
	KeyRetryAfterMs   = "retry_after_ms"
	KeyErrorDetails   = "error_details"
	KeyResolution     = "resolution"
	KeyResolutionHint = "resolution_hint"
	KeyResultFD       = "result_fd"
)

// Values of the status key.
const (
	StatusSuccess  = "success"
	StatusAccepted = "accepted"
	StatusError    = "error"
)

// Version2 is the protocol version this package speaks; Version1 is the
// read-only legacy protocol a dual-stack Provider still serves.
const (
	Version1 = 1
	Version2 = 2
)

// Optional capabilities of §2.3.
const (
	CapAsyncOperations = "async_operations"
	CapCancellation    = "cancellation"
	CapLargeResults    = "large_results"
)

// SchemaDialect is the JSON Schema dialect of every v2 schema (§3.2).
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// KeyKinds gives the Bundle type of every key CETP defines, for requests
// and responses alike. A known key carrying another type is an
// INVALID_REQUEST.
var KeyKinds = map[string]Kind{
	KeyConsumerVersions:     KindIntArray,
	KeyConsumerCapabilities: KindString,
	KeyProtocolVersion:      KindInt,
	KeySessionToken:         KindString,
	KeyRequestID:            KindString,
	KeyDeadlineAtMs:         KindLong,
	KeyToolName:             KindString,
	KeyArgs:                 KindString,
	KeyResumeToken:          KindString,
	KeyOperationID:          KindString,
	KeyStatus:               KindString,
	KeyData:                 KindString,
	KeyErrorCode:            KindString,
	KeyErrorMessage:         KindString,
	KeyRetryable:            KindBoolean,
	KeyRetryAfterMs:         KindLong,
	KeyErrorDetails:         KindString,
	KeyResolution:           KindResolution,
	KeyResolutionHint:       KindString,
	KeyResultFD:             KindFileDescriptor,
}
