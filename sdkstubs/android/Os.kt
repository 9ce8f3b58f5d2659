// Compile-only stand-ins for android.os, android.net, android.database and
// android.app classes. Bundle is functional (backed by a map).
@file:Suppress("unused", "UNUSED_PARAMETER")

package android.os

/** Bundle stands in for android.os.Bundle: a typed map. */
class Bundle {
    private val values = LinkedHashMap<String, Any?>()

    fun putString(key: String?, value: String?) { values[key ?: ""] = value }
    fun getString(key: String?): String? = values[key ?: ""] as? String
    fun putInt(key: String?, value: Int) { values[key ?: ""] = value }
    fun getInt(key: String?): Int = getInt(key, 0)
    fun getInt(key: String?, defaultValue: Int): Int = values[key ?: ""] as? Int ?: defaultValue
    fun putLong(key: String?, value: Long) { values[key ?: ""] = value }
    fun getLong(key: String?): Long = values[key ?: ""] as? Long ?: 0L
    fun putBoolean(key: String?, value: Boolean) { values[key ?: ""] = value }
    fun getBoolean(key: String?): Boolean = values[key ?: ""] as? Boolean ?: false
    fun putIntArray(key: String?, value: IntArray?) { values[key ?: ""] = value }
    fun getIntArray(key: String?): IntArray? = values[key ?: ""] as? IntArray
    fun containsKey(key: String?): Boolean = values.containsKey(key ?: "")
    fun keySet(): Set<String> = values.keys
}

/** ParcelFileDescriptor stands in for android.os.ParcelFileDescriptor. */
class ParcelFileDescriptor private constructor() : java.io.Closeable {
    override fun close() {}
}

/** IBinder stands in for android.os.IBinder. */
interface IBinder
