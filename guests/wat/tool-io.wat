;; tool-io: a murmur:tool/run@0.1.0 tool that imports murmur:text/chunks and
;; murmur:task/task. run emits the text chunk "hello" and the thinking chunk
;; "hmm"; when its input has data it then asks request-input("name?") and
;; answers status passed with the reply as data, otherwise passed with no
;; data.
(component
  (type $chunks-t (instance
    (export "emit-chunk" (func (param "chunk" string)))
    (export "emit-thinking-chunk" (func (param "chunk" string)))))
  (import "murmur:text/chunks@0.1.0" (instance $chunks (type $chunks-t)))
  (type $task-t (instance
    (export "request-input" (func (param "prompt" string) (result string)))))
  (import "murmur:task/task@0.1.0" (instance $task (type $task-t)))
  (alias export $chunks "emit-chunk" (func $emit))
  (alias export $chunks "emit-thinking-chunk" (func $think))
  (alias export $task "request-input" (func $ask))

  (core module $libc
    (memory (export "memory") 1)
    (global $bump (mut i32) (i32.const 1024))
    (func (export "realloc") (param $old i32) (param $old-size i32) (param $align i32) (param $size i32) (result i32)
      (local $p i32)
      (local.set $p
        (i32.and
          (i32.add (global.get $bump) (i32.sub (local.get $align) (i32.const 1)))
          (i32.sub (i32.const 0) (local.get $align))))
      (global.set $bump (i32.add (local.get $p) (local.get $size)))
      (if (i32.ne (local.get $old) (i32.const 0))
        (then (memory.copy (local.get $p) (local.get $old) (local.get $old-size))))
      (local.get $p)))
  (core instance $libc (instantiate $libc))
  (alias core export $libc "memory" (core memory $memory))
  (alias core export $libc "realloc" (core func $realloc))

  (core func $emit-l (canon lower (func $emit) (memory $memory)))
  (core func $think-l (canon lower (func $think) (memory $memory)))
  (core func $ask-l (canon lower (func $ask) (memory $memory) (realloc $realloc)))

  (core module $main
    (import "env" "memory" (memory 1))
    (import "host" "emit" (func $emit (param i32 i32)))
    (import "host" "think" (func $think (param i32 i32)))
    (import "host" "ask" (func $ask (param i32 i32 i32)))
    (data (i32.const 100) "hello")
    (data (i32.const 110) "hmm")
    (data (i32.const 120) "name?")
    ;; tool-result at 256: status@0 summary@4 data@16 data-path@28
    ;; truncated@40 metadata@44.
    (func (export "run") (param $has-data i32) (param i32 i32 i32 i32 i32) (result i32)
      (call $emit (i32.const 100) (i32.const 5))
      (call $think (i32.const 110) (i32.const 3))
      (i32.store8 (i32.const 256) (i32.const 0))
      (i32.store8 (i32.const 260) (i32.const 0))
      (i32.store8 (i32.const 272) (i32.const 0))
      (if (local.get $has-data)
        (then
          (call $ask (i32.const 120) (i32.const 5) (i32.const 200))
          (i32.store8 (i32.const 272) (i32.const 1))
          (i32.store (i32.const 276) (i32.load (i32.const 200)))
          (i32.store (i32.const 280) (i32.load (i32.const 204)))))
      (i32.store8 (i32.const 284) (i32.const 0))
      (i32.store8 (i32.const 296) (i32.const 0))
      (i32.store (i32.const 300) (i32.const 0))
      (i32.store (i32.const 304) (i32.const 0))
      (i32.const 256)))
  (core instance $main (instantiate $main
    (with "env" (instance (export "memory" (memory $memory))))
    (with "host" (instance
      (export "emit" (func $emit-l))
      (export "think" (func $think-l))
      (export "ask" (func $ask-l))))))

  (type $status (enum "passed" "failed" "error"))
  (type $tool-input (record
    (field "data" (option string))
    (field "log-path" (option string))))
  (type $tool-result (record
    (field "status" $status)
    (field "summary" (option string))
    (field "data" (option string))
    (field "data-path" (option string))
    (field "truncated" bool)
    (field "metadata" (list (tuple string string)))))
  (type $ft (func (param "input" $tool-input) (result $tool-result)))
  (func $run (type $ft)
    (canon lift (core func $main "run") (memory $memory) (realloc $realloc) string-encoding=utf8))
  (instance $ti
    (export "status" (type $status))
    (export "tool-input" (type $tool-input))
    (export "tool-result" (type $tool-result))
    (export "run" (func $run)))
  (export "murmur:tool/run@0.1.0" (instance $ti))
)
