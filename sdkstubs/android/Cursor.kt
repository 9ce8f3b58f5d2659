// Compile-only stand-in for android.database.Cursor.
@file:Suppress("unused")

package android.database

/** Cursor stands in for android.database.Cursor. */
interface Cursor : java.io.Closeable
