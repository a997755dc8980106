package cli

import (
	"github.com/spf13/cobra"
)

const evalLong = `Score a capsule's sessions and compare the scores.

A scored session has an eval.jsonl beside its trace.jsonl: one JSON
line per scorer verdict ({"record_type":"event_score", "scorer", "result":
"pass"|"fail", "score", "reason", …}) and a last summary line
({"record_type":"dataset_run", "case_id", "dataset_id", "overall",
"scores"}). 'mur eval run' writes them; 'mur eval show' summarises one
file and 'mur eval diff' compares two.

The scorers are the capsule's observability.eval.scorers:

  exit_ok        passes when the session ended ok
  max_turns      passes when it took at most max model turns (default 10)
  max_tokens     passes when input + output tokens were at most max
                 (default 100000)
  tool_sequence  passes when the tools in expected were called in that
                 order (other calls between them allowed)

llm_judge is not implemented (mur eval run refuses it), nor is a case's
"expected" answer.

Examples:
  mur eval run                              # every case of ./eval.jsonl against ./murmur.yaml
  mur eval run ./my-agent --dataset cases.jsonl
  mur eval show                             # the newest session in ./workdir
  mur eval show 3f9a --json                 # the session whose id ends in 3f9a
  mur eval diff 3f9a 81c0                   # which scorers got better or worse`

func newEvalCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Run a dataset against a capsule and score it; show and compare the scores",
		Long:  evalLong,
		Args:  cobra.ArbitraryArgs,
		RunE:  runGroup,
	}
	cmd.AddCommand(newEvalShowCommand(a), newEvalDiffCommand(a), newEvalRunCommand(a))
	return cmd
}
