// Compile-only stand-ins for android.content.Intent and android.os.IBinder.
@file:Suppress("unused")

package android.content

/** Intent stands in for android.content.Intent. */
class Intent
