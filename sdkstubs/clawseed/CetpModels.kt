// A stand-in for the provider-side public API of the ClawSeed Android SDK
// (package dev.clawseed.sdk.android.cetp at commit 474b94e), which has no
// published artifact. Written for cetpgen from the API facts of the
// project's ClawSeed reference (sections 2.1 to 2.4): names, parameter
// order, nullability and defaults as there, data classes as data classes.
// It compiles against the real Android framework (android-all) and
// kotlinx-serialization-json. Of CetpConstants only the members the
// reference names are declared; the consumer side (CetpClient,
// ExternalToolBridge and their models) is not part of it.
package dev.clawseed.sdk.android.cetp

import android.app.PendingIntent
import android.content.Context
import android.content.pm.PackageManager
import android.content.pm.Signature
import android.os.Build
import android.os.ParcelFileDescriptor
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import java.security.MessageDigest

object CetpConstants {
    const val DEFAULT_SCHEMA_DIALECT: String = "https://json-schema.org/draft/2020-12/schema"
    const val ERROR_USER_ACTION_REQUIRED: String = "USER_ACTION_REQUIRED"
    const val ERROR_AUTH_REQUIRED: String = "AUTH_REQUIRED"
    const val ERROR_PERMISSION_DENIED: String = "PERMISSION_DENIED"
}

enum class ToolEffect(val wireValue: String) {
    READ("read"), CREATE("create"), UPDATE("update"), DELETE("delete"), TRANSACTION("transaction")
}

enum class ToolRisk(val wireValue: String) { LOW("low"), MODERATE("moderate"), HIGH("high") }

enum class ConfirmationPolicy(val wireValue: String) {
    NEVER("never"), PROVIDER_POLICY("provider_policy"), ALWAYS("always")
}

enum class ExecutionMode(val wireValue: String) { SYNC("sync"), SYNC_OR_ASYNC("sync_or_async") }

enum class ScopeAccess(val wireValue: String) { READ("read"), WRITE("write") }

enum class ScopeSensitivity(val wireValue: String) {
    PUBLIC("public"), PERSONAL("personal"), FINANCIAL("financial"), HEALTH("health"), DEVICE("device"), OTHER("other")
}

enum class OperationState(val wireValue: String) {
    QUEUED("queued"), RUNNING("running"), SUCCEEDED("succeeded"), FAILED("failed"),
    CANCELLED("cancelled"), CANCELLATION_REQUESTED("cancellation_requested")
}

data class ToolAnnotations(
    val effect: ToolEffect = ToolEffect.READ,
    val risk: ToolRisk = ToolRisk.LOW,
    val destructive: Boolean = false,
    val idempotent: Boolean = true,
    val openWorld: Boolean = false,
    val confirmation: ConfirmationPolicy = ConfirmationPolicy.NEVER,
    val execution: ExecutionMode = ExecutionMode.SYNC,
) {
    val hasSideEffects: Boolean get() = effect != ToolEffect.READ
}

data class ProviderScope(
    val name: String,
    val description: String,
    val title: String = name,
    val access: ScopeAccess = ScopeAccess.READ,
    val sensitivity: ScopeSensitivity = ScopeSensitivity.OTHER,
)

data class CetpLimits(
    val maxRequestBytes: Int = 65_536,
    val maxInlineResultBytes: Int = 262_144,
    val maxConcurrentRequests: Int = 1,
    val idempotencyWindowSeconds: Long = 86_400L,
)

data class CetpProviderDescriptor(
    val providerId: String,
    val providerName: String,
    val description: String,
    val scopes: List<ProviderScope>,
    val schemaDialect: String = CetpConstants.DEFAULT_SCHEMA_DIALECT,
    val capabilities: Set<String> = emptySet(),
    val limits: CetpLimits = CetpLimits(),
)

data class CetpProviderTool(
    val name: String,
    val title: String,
    val description: String,
    val inputSchema: JsonObject,
    val outputSchema: JsonObject,
    val scopes: List<String> = emptyList(),
    val annotations: ToolAnnotations = ToolAnnotations(),
)

data class CetpCallerPackage(val packageName: String, val signingCertificateSha256: Set<String>)

data class CetpCallerIdentity(val uid: Int, val packages: List<CetpCallerPackage>) {
    val stableKey: String
        get() = uid.toString() + packages.sortedBy { it.packageName }.joinToString("") { p ->
            "|" + p.packageName + p.signingCertificateSha256.sorted().joinToString("") { ":$it" }
        }

    companion object {
        /**
         * resolve lists every package of uid with the SHA-256 (lowercase hex)
         * of each signing certificate, as the SDK does before each call.
         */
        fun resolve(context: Context, uid: Int): CetpCallerIdentity {
            val pm = context.packageManager
            val packages = (pm.getPackagesForUid(uid) ?: emptyArray()).sorted().map { name ->
                CetpCallerPackage(name, signers(pm, name).map { sha256Hex(it.toByteArray()) }.toSet())
            }
            return CetpCallerIdentity(uid, packages)
        }

        @Suppress("DEPRECATION")
        private fun signers(pm: PackageManager, name: String): List<Signature> =
            if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) {
                pm.getPackageInfo(name, PackageManager.GET_SIGNING_CERTIFICATES).signingInfo?.apkContentsSigners?.toList() ?: emptyList()
            } else {
                pm.getPackageInfo(name, PackageManager.GET_SIGNATURES).signatures?.toList() ?: emptyList()
            }

        private fun sha256Hex(b: ByteArray): String =
            MessageDigest.getInstance("SHA-256").digest(b).joinToString("") { "%02x".format(it) }
    }
}

data class CetpProviderRequest(
    val caller: CetpCallerIdentity,
    val requestId: String,
    val deadlineAtMillis: Long,
    val tool: CetpProviderTool,
    val args: JsonObject,
    val rawArgsJson: String,
    val resumeToken: String?,
)

sealed class CetpAccessDecision {
    data class Granted(val providerConfirmed: Boolean = false) : CetpAccessDecision()
    data class ActionRequired(
        val resolution: PendingIntent,
        val resumeToken: String,
        val message: String,
        val hint: String? = null,
        val errorCode: String = CetpConstants.ERROR_USER_ACTION_REQUIRED,
    ) : CetpAccessDecision()
    data class Denied(
        val message: String = "Caller is not authorized",
        val errorCode: String = CetpConstants.ERROR_PERMISSION_DENIED,
    ) : CetpAccessDecision()
}

sealed class CetpProviderResult {
    data class Inline(val value: JsonElement) : CetpProviderResult()
    data class File(val descriptor: ParcelFileDescriptor, val mediaType: String, val sizeBytes: Long, val sha256: String) : CetpProviderResult()
    data class Accepted(val operationId: String, val pollAfterMillis: Long = 1_000L) : CetpProviderResult()
    data class Failure(
        val errorCode: String,
        val message: String,
        val retryable: Boolean = false,
        val retryAfterMillis: Long? = null,
        val details: JsonObject? = null,
    ) : CetpProviderResult()
}

data class CetpProviderOperation(
    val operationId: String,
    val state: OperationState,
    val pollAfterMillis: Long = 1_000L,
    val progressCurrent: Long? = null,
    val progressTotal: Long? = null,
    val progressMessage: String? = null,
    val result: CetpProviderResult? = null,
    val error: CetpProviderResult.Failure? = null,
)

data class CetpMutationContext(
    val callerKey: String,
    val providerId: String,
    val requestId: String,
    val fingerprintSha256: String,
    val retainUntilMillis: Long,
)

fun interface CetpMutationExecutor {
    fun execute(context: CetpMutationContext, mutation: () -> CetpProviderResult): CetpProviderResult
}
