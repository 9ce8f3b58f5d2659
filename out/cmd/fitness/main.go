// Command fitnessd serves Example Fitness (provider_id com.example.fitness) over the CETP v2 Unix-socket binding,
// with the generated package go/fitness and runtime/serve.
//
// cetpgen wrote this file once, from specs/fitness/provider.yaml, and never overwrites it: it is yours.
// Fill in the methods of server; until then each tool answers INTERNAL_ERROR
// "... is not implemented yet". After a change of the spec, cetpgen generate
// updates go/fitness and the compiler lists the methods to add or change here.
//
// Run it (flags: fitnessd --help):
//
//	go run ./out/cmd/fitness --socket /tmp/fitness.sock --db fitness.db
package main

import (
	"context"
	"github.com/cetpgen/cetpgen/out/go/fitness"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/serve"
)

func main() {
	serve.Main(serve.Server{
		Descriptor: fitness.Descriptor(),
		Name:       "fitnessd",
		Tools: func(env serve.Env) ([]provider.Tool, error) {
			// env.Store is the open store (a *sqlitestore.Store or *pgstore.Store, whose DB()
			// can hold tables of your own); env.Log is the server's logger.
			return fitness.Tools(&server{}), nil
		},
	})
}

// server implements fitness.Handler: one method per tool. Writes go through call.Tx
// (they commit with the runtime's deduplication record); return a *protocol.Error
// to choose the code the Consumer sees.
type server struct{}

var _ fitness.Handler = (*server)(nil)

// DeleteWorkout runs delete_workout: 删除运动记录
// (effect delete, risk moderate, confirmation always).
func (s *server) DeleteWorkout(ctx context.Context, call *provider.Call, in fitness.DeleteWorkoutInput) (fitness.DeleteWorkoutOutput, error) {
	return fitness.DeleteWorkoutOutput{}, notImplemented("delete_workout")
}

// ExportHealthData runs export_health_data: 导出健康档案
// (effect read, risk low, confirmation never).
func (s *server) ExportHealthData(ctx context.Context, call *provider.Call, in fitness.ExportHealthDataInput) (fitness.ExportHealthDataOutput, error) {
	return fitness.ExportHealthDataOutput{}, notImplemented("export_health_data")
}

// ListWorkouts runs list_workouts: 查看运动记录
// (effect read, risk low, confirmation never).
func (s *server) ListWorkouts(ctx context.Context, call *provider.Call, in fitness.ListWorkoutsInput) (fitness.ListWorkoutsOutput, error) {
	return fitness.ListWorkoutsOutput{}, notImplemented("list_workouts")
}

// LogWorkout runs log_workout: 手动记录运动
// (effect create, risk low, confirmation never).
func (s *server) LogWorkout(ctx context.Context, call *provider.Call, in fitness.LogWorkoutInput) (fitness.LogWorkoutOutput, error) {
	return fitness.LogWorkoutOutput{}, notImplemented("log_workout")
}

// SyncWearable runs sync_wearable: 同步可穿戴设备
// (effect update, risk moderate, confirmation provider_policy).
func (s *server) SyncWearable(ctx context.Context, call *provider.Call, in fitness.SyncWearableInput) (fitness.SyncWearableOutput, error) {
	return fitness.SyncWearableOutput{}, notImplemented("sync_wearable")
}

// UpdatePreferences runs update_preferences: 修改应用设置
// (effect update, risk low, confirmation never).
func (s *server) UpdatePreferences(ctx context.Context, call *provider.Call, in fitness.UpdatePreferencesInput) (fitness.UpdatePreferencesOutput, error) {
	return fitness.UpdatePreferencesOutput{}, notImplemented("update_preferences")
}

// notImplemented is the answer of a tool whose method is not written yet:
// INTERNAL_ERROR, not retryable, saying so.
func notImplemented(tool string) error {
	return protocol.NewError(protocol.CodeInternalError, "%s is not implemented yet", tool)
}
