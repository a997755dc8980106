;; driver-nodata: a murmur:tool/run@0.2.0 driver double whose run answers
;; from the zeroed memory at 128, which the canonical ABI reads as
;;   status passed, summary none, data none, data-path none, truncated false,
;;   metadata and attachments empty.
;; Its realloc hands out 1024 for any argument (inputs under 63 KiB).
(component
  (core module $m
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (i32.const 1024))
    (func (export "run") (param i32 i32 i32 i32 i32 i32) (result i32)
      (i32.const 128))
  )
  (core instance $i (instantiate $m))
  (alias core export $i "memory" (core memory $mem))
  (alias core export $i "realloc" (core func $realloc))

  (type $status (enum "passed" "failed" "error"))
  (type $tool-input (record
    (field "data" (option string))
    (field "log-path" (option string))))
  (type $attachment (record
    (field "media-type" string)
    (field "path" string)))
  (type $tool-result (record
    (field "status" $status)
    (field "summary" (option string))
    (field "data" (option string))
    (field "data-path" (option string))
    (field "truncated" bool)
    (field "metadata" (list (tuple string string)))
    (field "attachments" (list $attachment))))
  (type $ft (func (param "input" $tool-input) (result $tool-result)))
  (func $run (type $ft)
    (canon lift (core func $i "run") (memory $mem) (realloc $realloc) string-encoding=utf8))
  (instance $ti
    (export "status" (type $status))
    (export "tool-input" (type $tool-input))
    (export "attachment" (type $attachment))
    (export "tool-result" (type $tool-result))
    (export "run" (func $run)))
  (export "murmur:tool/run@0.2.0" (instance $ti))
)
