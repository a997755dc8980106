package launch

// NewServedTools prepares the tools and shell of the staged capsule
// opts.Staged, script or agent, for a session that serves them (`mur
// mcp serve`) without running the capsule's component or model: each
// built as for the agent loop, under the grants a script capsule's tools
// get. Any failure is a coded error: the tools cannot be served.
func NewServedTools(opts Options) (*AgentTools, error) {
	o := opts.withDefaults()
	_, tb, shell, err := newAgentToolbox(&o)
	if err != nil {
		return nil, err
	}
	return &AgentTools{Tools: tb.tools, Allowlist: tb.allowlist, Shell: shell}, nil
}
