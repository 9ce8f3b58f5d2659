// Compile-only stand-in for android.net.Uri.
@file:Suppress("unused")

package android.net

/** Uri stands in for android.net.Uri. */
abstract class Uri
