// Generated once by cetpgen from specs/fitness/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.fitness.cetp

import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpMutationExecutor
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import java.math.BigDecimal
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject

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

    override fun deleteWorkout(input: DeleteWorkoutInput, request: CetpProviderRequest): FitnessToolProviderReply<DeleteWorkoutOutput> =
        TODO("implement the tool delete_workout")

    override fun exportHealthData(input: ExportHealthDataInput, request: CetpProviderRequest): FitnessToolProviderReply<ExportHealthDataOutput> =
        TODO("implement the tool export_health_data")

    override fun listWorkouts(input: ListWorkoutsInput, request: CetpProviderRequest): FitnessToolProviderReply<ListWorkoutsOutput> =
        TODO("implement the tool list_workouts")

    override fun logWorkout(input: LogWorkoutInput, request: CetpProviderRequest): FitnessToolProviderReply<LogWorkoutOutput> =
        TODO("implement the tool log_workout")

    override fun syncWearable(input: SyncWearableInput, request: CetpProviderRequest): FitnessToolProviderReply<SyncWearableOutput> =
        TODO("implement the tool sync_wearable")

    override fun updatePreferences(input: UpdatePreferencesInput, request: CetpProviderRequest): FitnessToolProviderReply<UpdatePreferencesOutput> =
        TODO("implement the tool update_preferences")
}
