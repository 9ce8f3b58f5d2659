// Compile-only stand-ins for android.app.PendingIntent, android.net.Uri and
// android.database.Cursor.
@file:Suppress("unused")

package android.app

/** PendingIntent stands in for android.app.PendingIntent. */
class PendingIntent private constructor() {
    val creatorPackage: String? get() = null
}

/** Service stands in for android.app.Service. */
abstract class Service {
    abstract fun onBind(intent: android.content.Intent?): android.os.IBinder?
}
