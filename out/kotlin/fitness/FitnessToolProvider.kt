// Generated once by cetpgen from specs/fitness/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.fitness.cetp

import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpMutationExecutor
import dev.clawseed.sdk.android.cetp.CetpProviderRequest

/**
 * FitnessToolProvider is the app's CETP Provider: it fills in the hooks of the
 * generated [FitnessToolProviderBase]. Register it in the manifest (see the generated
 * fragment) and replace every TODO.
 */
class FitnessToolProvider : FitnessToolProviderBase() {
    override val mutationExecutor: CetpMutationExecutor
        get() = TODO("persist the deduplication record, the mutation and its result in one transaction")

    override fun holdsScope(caller: CetpCallerIdentity, scope: String): Boolean =
        TODO("look up whether the caller was granted the scope")

    override fun confirm(request: CetpProviderRequest): FitnessToolProviderConfirmation =
        TODO("show the Provider's own confirmation UI and validate the resume token")

    override fun deleteWorkout(input: DeleteWorkout.Input, request: CetpProviderRequest): FitnessToolProviderReply<DeleteWorkout.Output> =
        TODO("implement the tool delete_workout")

    override fun exportHealthData(input: ExportHealthData.Input, request: CetpProviderRequest): FitnessToolProviderReply<ExportHealthData.Output> =
        TODO("implement the tool export_health_data")

    override fun listWorkouts(input: ListWorkouts.Input, request: CetpProviderRequest): FitnessToolProviderReply<ListWorkouts.Output> =
        TODO("implement the tool list_workouts")

    override fun logWorkout(input: LogWorkout.Input, request: CetpProviderRequest): FitnessToolProviderReply<LogWorkout.Output> =
        TODO("implement the tool log_workout")

    override fun syncWearable(input: SyncWearable.Input, request: CetpProviderRequest): FitnessToolProviderReply<SyncWearable.Output> =
        TODO("implement the tool sync_wearable")

    override fun updatePreferences(input: UpdatePreferences.Input, request: CetpProviderRequest): FitnessToolProviderReply<UpdatePreferences.Output> =
        TODO("implement the tool update_preferences")
}
