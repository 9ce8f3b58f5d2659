// Generated once by cetpgen from specs/alerts/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.app.cetp

import android.app.PendingIntent
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import java.math.BigDecimal
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject

/**
 * AlertToolProvider is the app's CETP Provider: it fills in the hooks of the
 * generated [AlertToolProviderBase]. Register it in the manifest (see the generated
 * fragment) and replace every TODO.
 */
class AlertToolProvider : AlertToolProviderBase() {
    override val durableStore: AlertToolProviderStore
        get() = TODO("return one AlertToolProviderStore on the app's SQLiteDatabase, the one the tools write to")

    override fun confirmationIntent(request: CetpProviderRequest, resolutionId: String): PendingIntent =
        TODO("return an immutable PendingIntent to the app's confirmation Activity, carrying resolutionId")

    override fun createAlert(input: CreateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<CreateAlertOutput> =
        TODO("implement the tool create_alert")

    override fun deleteAlert(input: DeleteAlertInput, request: CetpProviderRequest): AlertToolProviderReply<DeleteAlertOutput> =
        TODO("implement the tool delete_alert")

    override fun listAlerts(input: ListAlertsInput, request: CetpProviderRequest): AlertToolProviderReply<ListAlertsOutput> =
        TODO("implement the tool list_alerts")

    override fun updateAlert(input: UpdateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<UpdateAlertOutput> =
        TODO("implement the tool update_alert")
}
