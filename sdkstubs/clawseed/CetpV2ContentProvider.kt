// Compile-only declaration of the SDK's CetpV2ContentProvider with the
// member kinds, visibilities and defaults of the reference (section 2.4).
// The wire handling (call) is not reproduced; tests call the hooks directly.
@file:Suppress("unused", "UNUSED_PARAMETER")

package dev.clawseed.sdk.android.cetp

import android.content.ContentProvider
import android.content.ContentValues
import android.database.Cursor
import android.net.Uri
import android.os.Bundle

abstract class CetpV2ContentProvider : ContentProvider() {
    protected abstract val provider: CetpProviderDescriptor
    protected abstract val providerTools: List<CetpProviderTool>
    protected open val mutationExecutor: CetpMutationExecutor? = null
    protected open val sessionTtlMillis: Long = 3_600_000L

    protected open fun onCetpCreate(): Boolean = true

    protected open fun handleV1Call(method: String, arg: String?, extras: Bundle?, caller: CetpCallerIdentity): Bundle {
        val b = Bundle()
        b.putString("status", "error")
        b.putString("error_code", "METHOD_NOT_FOUND")
        b.putString("error_message", "CETP v1 is not supported")
        return b
    }

    protected open fun canDiscoverTool(caller: CetpCallerIdentity, tool: CetpProviderTool): Boolean = true
    protected open fun authorize(request: CetpProviderRequest): CetpAccessDecision = CetpAccessDecision.Denied()
    protected abstract fun executeTool(request: CetpProviderRequest): CetpProviderResult
    protected open fun getOperation(caller: CetpCallerIdentity, requestId: String, operationId: String): CetpProviderOperation? = null
    protected open fun cancelOperation(caller: CetpCallerIdentity, requestId: String, operationId: String): CetpProviderOperation? = null

    final override fun onCreate(): Boolean = onCetpCreate()
    final override fun call(method: String, arg: String?, extras: Bundle?): Bundle? = null
    final override fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor? = null
    final override fun getType(uri: Uri): String? = null
    final override fun insert(uri: Uri, values: ContentValues?): Uri? = null
    final override fun delete(uri: Uri, selection: String?, selectionArgs: Array<String>?): Int = 0
    final override fun update(uri: Uri, values: ContentValues?, selection: String?, selectionArgs: Array<String>?): Int = 0
}
