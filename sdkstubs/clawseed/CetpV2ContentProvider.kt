// The stand-in's CetpV2ContentProvider: the member kinds, visibilities and
// defaults of the ClawSeed reference (section 2.4), on Android's own
// ContentProvider. Of the wire handling, call() keeps the routing of
// section 2.5 step 1 (caller resolution, then CETP v1 to handleV1Call when
// protocol_version is not 2); the CETP v2 wire path is the SDK's and is not
// reproduced: a v2 call fails loudly instead of answering like the SDK.
// Tests drive the v2 hooks (authorize, executeTool) directly.
package dev.clawseed.sdk.android.cetp

import android.content.ContentProvider
import android.content.ContentValues
import android.database.Cursor
import android.net.Uri
import android.os.Binder
import android.os.Bundle

/**
 * Base ContentProvider implementing the CETP v2 wire contract. Authorization,
 * Provider confirmation UI, business execution, operation persistence, and
 * durable mutation deduplication remain explicit hooks owned by the Provider
 * application.
 */
abstract class CetpV2ContentProvider : ContentProvider() {
    protected abstract val provider: CetpProviderDescriptor
    protected abstract val providerTools: List<CetpProviderTool>
    protected open val mutationExecutor: CetpMutationExecutor? = null
    protected open val sessionTtlMillis: Long = 3_600_000L

    protected open fun onCetpCreate(): Boolean = true

    protected open fun handleV1Call(method: String, arg: String?, extras: Bundle?, caller: CetpCallerIdentity): Bundle =
        Bundle().apply {
            putString("status", "error")
            putString("error_code", "METHOD_NOT_FOUND")
            putString("error_message", "CETP v1 is not supported")
        }

    protected open fun canDiscoverTool(caller: CetpCallerIdentity, tool: CetpProviderTool): Boolean = true
    protected open fun authorize(request: CetpProviderRequest): CetpAccessDecision = CetpAccessDecision.Denied()
    protected abstract fun executeTool(request: CetpProviderRequest): CetpProviderResult
    protected open fun getOperation(caller: CetpCallerIdentity, requestId: String, operationId: String): CetpProviderOperation? = null
    protected open fun cancelOperation(caller: CetpCallerIdentity, requestId: String, operationId: String): CetpProviderOperation? = null

    final override fun onCreate(): Boolean = onCetpCreate()

    final override fun call(method: String, arg: String?, extras: Bundle?): Bundle? {
        val ctx = context ?: return null
        val caller = try {
            CetpCallerIdentity.resolve(ctx, Binder.getCallingUid())
        } catch (e: Exception) {
            return Bundle().apply {
                putString("status", "error")
                putString("error_code", "PERMISSION_DENIED")
                putString("error_message", "Unable to verify caller identity")
            }
        }
        if (method != "negotiate" && (extras?.getInt("protocol_version", 1) ?: 1) != 2) {
            return handleV1Call(method, arg, extras, caller)
        }
        throw UnsupportedOperationException("the CETP v2 wire path is the SDK's; this stand-in only routes CETP v1")
    }

    final override fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor? = null
    final override fun getType(uri: Uri): String? = null
    final override fun insert(uri: Uri, values: ContentValues?): Uri? = null
    final override fun delete(uri: Uri, selection: String?, selectionArgs: Array<String>?): Int = 0
    final override fun update(uri: Uri, values: ContentValues?, selection: String?, selectionArgs: Array<String>?): Int = 0
}
