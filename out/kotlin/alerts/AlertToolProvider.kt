// Generated once by cetpgen from specs/alerts/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.app.cetp

import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpMutationExecutor
import dev.clawseed.sdk.android.cetp.CetpProviderRequest

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

    override fun createAlert(input: CreateAlert.Input, request: CetpProviderRequest): AlertToolProviderReply<CreateAlert.Output> =
        TODO("implement the tool create_alert")

    override fun deleteAlert(input: DeleteAlert.Input, request: CetpProviderRequest): AlertToolProviderReply<DeleteAlert.Output> =
        TODO("implement the tool delete_alert")

    override fun listAlerts(input: ListAlerts.Input, request: CetpProviderRequest): AlertToolProviderReply<ListAlerts.Output> =
        TODO("implement the tool list_alerts")

    override fun updateAlert(input: UpdateAlert.Input, request: CetpProviderRequest): AlertToolProviderReply<UpdateAlert.Output> =
        TODO("implement the tool update_alert")
}
