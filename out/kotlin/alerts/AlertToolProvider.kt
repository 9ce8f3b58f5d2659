// Generated once by cetpgen from specs/alerts/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.app.cetp

import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpMutationExecutor
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
    override val mutationExecutor: CetpMutationExecutor
        get() = TODO("persist the deduplication record, the mutation and its result in one transaction")

    override fun holdsScope(caller: CetpCallerIdentity, scope: String): Boolean =
        TODO("look up whether the caller was granted the scope")

    override fun confirm(request: CetpProviderRequest): AlertToolProviderConfirmation =
        TODO("show the Provider's own confirmation UI and validate the resume token")

    override fun createAlert(input: CreateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<CreateAlertOutput> =
        TODO("implement the tool create_alert")

    override fun deleteAlert(input: DeleteAlertInput, request: CetpProviderRequest): AlertToolProviderReply<DeleteAlertOutput> =
        TODO("implement the tool delete_alert")

    override fun listAlerts(input: ListAlertsInput, request: CetpProviderRequest): AlertToolProviderReply<ListAlertsOutput> =
        TODO("implement the tool list_alerts")

    override fun updateAlert(input: UpdateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<UpdateAlertOutput> =
        TODO("implement the tool update_alert")
}
