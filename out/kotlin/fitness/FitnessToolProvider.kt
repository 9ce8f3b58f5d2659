// Generated once by cetpgen from specs/fitness/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.fitness.cetp

import android.app.PendingIntent
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
    override val durableStore: FitnessToolProviderStore
        get() = TODO("return one FitnessToolProviderStore on the app's SQLiteDatabase, the one the tools write to")

    override fun confirmationIntent(request: CetpProviderRequest, resolutionId: String): PendingIntent =
        TODO("return an immutable PendingIntent to the app's confirmation Activity, carrying resolutionId")

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
