// Compile-only stand-ins for the few Android framework classes that the
// generated Kotlin and the ClawSeed SDK stand-ins use. Bundle works for real
// (a map), so a JVM test can drive handleV1Call; the rest only type-checks.
@file:Suppress("unused", "UNUSED_PARAMETER")

package android.content

import android.database.Cursor
import android.net.Uri
import android.os.Bundle

/** Context stands in for android.content.Context. */
abstract class Context {
    abstract fun getPackageName(): String
}

/** ContentValues stands in for android.content.ContentValues. */
class ContentValues

/** ContentProvider stands in for android.content.ContentProvider. */
abstract class ContentProvider {
    /** getContext returns null outside Android. */
    fun getContext(): Context? = null
    abstract fun onCreate(): Boolean
    open fun call(method: String, arg: String?, extras: Bundle?): Bundle? = null
    abstract fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor?
    abstract fun getType(uri: Uri): String?
    abstract fun insert(uri: Uri, values: ContentValues?): Uri?
    abstract fun delete(uri: Uri, selection: String?, selectionArgs: Array<String>?): Int
    abstract fun update(uri: Uri, values: ContentValues?, selection: String?, selectionArgs: Array<String>?): Int
}
