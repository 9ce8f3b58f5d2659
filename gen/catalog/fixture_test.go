package catalog

import (
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// noop is the Run of every fixture leaf.
func noop(*cobra.Command, []string) {}

func leaf(use, short string) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Run: noop}
}

// fixtureRoot builds a small dws-like tree: calendar event create/list,
// report inbox list (with the compatibility alias "report list" as a cobra
// alias), aitable base delete, and CLI management commands.
func fixtureRoot() *cobra.Command {
	root := &cobra.Command{Use: "dws", Short: "Workspace CLI"}
	root.AddCommand(calendarCmd(), reportCmd(), aitableCmd(), leaf("version", "Print the version"),
		&cobra.Command{Use: "secret", Short: "hidden", Hidden: true, Run: noop})
	return root
}

func calendarCmd() *cobra.Command {
	cal := &cobra.Command{Use: "calendar", Short: "日历日程 / 会议室 / 闲忙"}
	event := &cobra.Command{Use: "event", Short: "Events"}
	create := leaf("create", "创建日程")
	create.Long = "创建日程。"
	f := create.Flags()
	f.String("title", "", "日程标题 (必填)")
	f.String("start", "", "开始时间 ISO-8601 (必填)")
	f.String("end", "", "结束时间 ISO-8601 (必填)")
	f.String("attendees", "", "参会人 userId 列表，逗号分隔")
	f.String("open-dingtalk-ids", "", "openDingTalkId 列表")
	f.String("recurrence-type", "", "循环类型")
	f.Int("recurrence-interval", 0, "循环间隔")
	_ = create.MarkFlagRequired("title")
	create.MarkFlagsRequiredTogether("recurrence-type", "recurrence-interval")
	list := leaf("list", "列出日程")
	list.Flags().Int("size", 20, "每页条数（默认 20）")
	event.AddCommand(create, list)
	cal.AddCommand(event)
	return cal
}

func reportCmd() *cobra.Command {
	rep := &cobra.Command{Use: "report", Short: "钉钉日志"}
	inbox := &cobra.Command{Use: "inbox", Short: "Inbox"}
	list := leaf("list", "列出我收到的日报")
	list.Flags().String("start", "", "开始时间 (必填)")
	list.Flags().Int("cursor", 0, "分页游标")
	list.Flags().Int("size", 20, "每页条数")
	list.Flags().StringSlice("sender-user-ids", nil, "发送人 staffId 列表")
	inbox.AddCommand(list)
	compat := leaf("list", "列出我收到的日报")
	compat.Flags().AddFlagSet(list.Flags())
	rep.AddCommand(inbox, compat)
	return rep
}

func aitableCmd() *cobra.Command {
	ai := &cobra.Command{Use: "aitable", Short: "AI 表格操作"}
	base := &cobra.Command{Use: "base", Short: "Bases"}
	del := leaf("delete", "删除 AI 表格")
	del.Flags().String("base-id", "", "待删除 Base ID")
	del.Flags().String("reason", "", "一句话描述删除的原因")
	_ = del.MarkFlagRequired("base-id")
	base.AddCommand(del)
	ai.AddCommand(base)
	return ai
}

func fixtureRegistry() *CommandRegistry {
	return &CommandRegistry{Schema: RegistrySchemaRef, Version: 1, Products: []RegistryProduct{
		{ID: "aitable", Tools: []CommandSpec{{CanonicalPath: "aitable.base_delete", CLIPath: "aitable base delete"}}},
		{ID: "calendar", Tools: []CommandSpec{
			{CanonicalPath: "calendar.create_calendar_event", CLIPath: "calendar event create"},
			{CanonicalPath: "calendar.list_calendar_events", CLIPath: "calendar event list"}}},
		{ID: "report", Tools: []CommandSpec{{CanonicalPath: "report.get_received_report_list",
			CLIPath: "report inbox list", Aliases: []string{"report list"}}}},
	}}
}

func ptr[T any](v T) *T { return &v }

func fixtureInput() *Input {
	reg := fixtureRegistry()
	return &Input{
		Root:        fixtureRoot,
		Registry:    reg,
		RegistryRef: RegistryFile,
		Exclusions:  []Exclusion{{CLIPath: "version", Group: "cli-management", Reason: "Local CLI lifecycle", Reviewed: true}, {CLIPath: "help", Group: "cli-management", Reason: "Cobra help", Reviewed: true}, {CLIPath: "completion bash", Group: "cli-management", Reason: "Shell completion", Reviewed: true}, {CLIPath: "completion zsh", Group: "cli-management", Reason: "Shell completion", Reviewed: true}, {CLIPath: "completion fish", Group: "cli-management", Reason: "Shell completion", Reviewed: true}, {CLIPath: "completion powershell", Group: "cli-management", Reason: "Shell completion", Reviewed: true}},
		Metadata:    []MetadataSource{fixtureMetadata()},
		Selection:   []SelectionSource{fixtureSelection()},
		Bindings: &Bindings{Version: 1, Ref: BindingsFile, Tools: map[string]map[string]string{
			"calendar.create_calendar_event":  {"title": "summary", "start": "startDateTime", "end": "endDateTime"},
			"report.get_received_report_list": {"start": "startTime"}},
			MappingExclusions: map[string]string{"aitable.base_delete --reason": "audit-only local note"}},
		Typed: &TypedSource{Ref: "typed", Tools: map[string]TypedTool{"calendar.create_calendar_event": {
			Parameters: map[string]TypedParameter{"start": {Format: "date-time"}, "end": {Format: "date-time", Example: "2026-03-10T15:00:00+08:00"},
				"recurrence-type": {Enum: []string{"daily", "weekly"}}}}}},
		Interfaces: fixtureInterfaces(),
	}
}

func fixtureMetadata() MetadataSource {
	return MetadataSource{Version: 1, Ref: "metadata/fixture.json", Source: SourceInfo{Name: "dws-tool-metadata/fixture", Reviewed: true},
		Tools: map[string]ToolMetadata{
			"aitable.base_delete": {Effect: "destructive", Risk: "high", Confirmation: "user_required",
				InterfaceMode: ModeMCP, Availability: Available, Reviewed: true,
				Parameters: map[string]ParameterOverlay{"base-id": {Description: ptr("待删除 Base ID。建议先通过 base get 确认目标 (必填)")}}},
			"calendar.create_calendar_event": {InterfaceMode: ModeMCP, Availability: Available, Reviewed: true,
				Parameters: map[string]ParameterOverlay{"recurrence-interval": {RequiredWhen: ptr("recurrence-type is set")}}},
			"calendar.list_calendar_events": {InterfaceMode: ModeComposite, Availability: Available, Reviewed: true,
				InterfaceReason: "Reviewed local projection over two RPCs"},
		}}
}

func fixtureSelection() SelectionSource {
	sel := func(sum, ex string) ToolSelection {
		return ToolSelection{AgentSummary: sum, UseWhen: []string{"when " + sum}, AvoidWhen: []string{"not for others"},
			Examples: []string{ex}, Reviewed: true, ReviewReason: "reviewed with the Cobra help"}
	}
	return SelectionSource{Version: 1, Ref: "selection/fixture.json", Source: SourceInfo{Name: "dws-agent-selection/fixture", Reviewed: true},
		Products: map[string]ProductSelection{"calendar": {AgentSummary: "管理日历", UseWhen: []string{"日历"}, AvoidWhen: []string{"聊天"}, Reviewed: true}},
		Tools: map[string]ToolSelection{
			"calendar.create_calendar_event":  sel("创建日程", "dws calendar event create --title x --start a --end b"),
			"report.get_received_report_list": sel("查询收到的日志", "dws report inbox list --start a"),
			"aitable.base_delete":             sel("删除 Base", "dws aitable base delete --base-id B"),
		}}
}

func fixtureInterfaces() *InterfaceFacts {
	ref := func(p, n string) catalog.InterfaceRef { return catalog.InterfaceRef{ProductID: p, RPCName: n} }
	return &InterfaceFacts{Version: 1, Ref: InterfacesFile, Source: "cetp-pinned-tools", SourceRevision: "tools-42",
		Services: []string{"aitable", "calendar", "report", "notify"},
		Tools: map[string]InterfaceTool{
			"aitable.base_delete": {Title: "删除 AI 表格", Description: "删除 Base", Ref: ref("aitable", "delete_base"),
				Parameters: map[string]InterfaceParam{"baseId": {Type: "string", Description: "待删除 Base ID", Required: true}}},
			"calendar.create_calendar_event": {Title: "创建日程", Ref: ref("calendar", "create_calendar_event"),
				Annotations: &Annotations{Effect: "create", Risk: "moderate", Confirmation: "never"},
				Parameters: map[string]InterfaceParam{"summary": {Type: "string", Description: "标题", Required: true},
					"startDateTime": {Type: "string", Description: "开始", Required: true}}},
			"calendar.list_calendar_events": {Ref: ref("calendar", "list_events")},
			"report.get_received_report_list": {Ref: ref("report", "get_received_report_list"),
				Parameters: map[string]InterfaceParam{"startTime": {Type: "number", Description: "开始时间，毫秒", Required: true},
					"cursor": {Type: "number", Description: "起始游标", Required: true}}},
		}}
}
