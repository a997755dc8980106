;; capsule-steps: a script capsule for mur run's integration tests. Its
;; murmur:capsule/run@0.1.0#run makes one call per host interface and hands
;; every outcome to the tool "record" (an err's text, else "ok"), which
;; appends it to record.txt in the workdir, so a test reads what the capsule
;; was told. In order:
;;
;;   1. invoke spin      (tool-spin: loops until its deadline)
;;   2. invoke grow      (tool-grow: grows memory until refused)
;;   3. invoke secret    (never declared by any test manifest)
;;   4. pull extra@0.1.0
;;   5. send to the URL "record" returns for the input "peer?" (peer.txt)
;;
;; Which calls succeed depends only on the test's murmur.yaml. The core
;; code has no loop, so it can only stop at the host's own checks.
(component
  (type $run-t (instance
    (type $st (enum "passed" "failed" "error"))
    (export "status" (type $status (eq $st)))
    (type $ti (record (field "data" (option string)) (field "log-path" (option string))))
    (export "tool-input" (type $tool-input (eq $ti)))
    (type $tr (record
      (field "status" $status)
      (field "summary" (option string))
      (field "data" (option string))
      (field "data-path" (option string))
      (field "truncated" bool)
      (field "metadata" (list (tuple string string)))))
    (export "tool-result" (type $tool-result (eq $tr)))))
  (import "murmur:tool/run@0.1.0" (instance $run (type $run-t)))
  (alias export $run "status" (type $status))
  (alias export $run "tool-input" (type $tool-input))
  (alias export $run "tool-result" (type $tool-result))

  (type $invoke-t (instance
    (alias outer 1 $status (type $st))
    (export "status" (type $s (eq $st)))
    (alias outer 1 $tool-input (type $ti))
    (export "tool-input" (type $i (eq $ti)))
    (alias outer 1 $tool-result (type $tr))
    (export "tool-result" (type $r (eq $tr)))
    (export "invoke" (func (param "name" string) (param "input" $i) (result (result $r (error string)))))))
  (import "murmur:tool-registry/invoke@0.1.0" (instance $invoke (type $invoke-t)))
  (alias export $invoke "invoke" (func $invoke-fn))

  (type $manage-t (instance
    (type $rt (enum "wasm" "native"))
    (export "runtime-type" (type $runtime-type (eq $rt)))
    (type $as (record (field "name" string) (field "version" string) (field "runtime" $runtime-type)))
    (export "artifact-summary" (type $summary (eq $as)))
    (export "pull" (func (param "name" string) (param "version" string) (result (result $summary (error string)))))))
  (import "murmur:artifact-manager/manage@0.1.0" (instance $manage (type $manage-t)))
  (alias export $manage "pull" (func $pull-fn))

  (type $send-t (instance
    (type $m (record (field "message-id" string) (field "context-id" (option string)) (field "text" string)))
    (export "message" (type $message (eq $m)))
    (type $t (record (field "task-id" string) (field "context-id" string) (field "state" string)))
    (export "task-result" (type $task-result (eq $t)))
    (export "send" (func (param "peer-url" string) (param "message" $message) (result (result $task-result (error string)))))))
  (import "murmur:message/send@0.1.0" (instance $send (type $send-t)))
  (alias export $send "send" (func $send-fn))

  (core module $libc
    (memory (export "memory") 4)
    (global $bump (mut i32) (i32.const 4096))
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

  (core func $invoke-l (canon lower (func $invoke-fn) (memory $memory) (realloc $realloc)))
  (core func $pull-l (canon lower (func $pull-fn) (memory $memory) (realloc $realloc)))
  (core func $send-l (canon lower (func $send-fn) (memory $memory) (realloc $realloc)))

  ;; Strings live at 1024+; return areas at 256 (a step) and 512 (record).
  ;; A result's discriminant is at +0 and an err string's (ptr, len) at
  ;; +4, +8 for all three functions; an ok tool-result's data option is
  ;; at +20 (discriminant), +24, +28.
  (core module $main
    (import "host" "invoke" (func $invoke (param i32 i32 i32 i32 i32 i32 i32 i32 i32)))
    (import "host" "pull" (func $pull (param i32 i32 i32 i32 i32)))
    (import "host" "send" (func $send (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32)))
    (import "libc" "memory" (memory 1))
    (data (i32.const 1024) "record")       ;; 6
    (data (i32.const 1040) "spin")         ;; 4
    (data (i32.const 1056) "grow")         ;; 4
    (data (i32.const 1072) "secret")       ;; 6
    (data (i32.const 1088) "extra")        ;; 5
    (data (i32.const 1104) "0.1.0")        ;; 5
    (data (i32.const 1120) "peer?")        ;; 5
    (data (i32.const 1136) "ok")           ;; 2
    (data (i32.const 1152) "msg-1")        ;; 5
    (data (i32.const 1168) "hello, peer")  ;; 11
    (data (i32.const 1184) "http://127.0.0.1:9/") ;; 19

    ;; record(text): invoke("record", some(text)); its own result is ignored.
    (func $record (param $ptr i32) (param $len i32)
      (call $invoke (i32.const 1024) (i32.const 6)
        (i32.const 1) (local.get $ptr) (local.get $len)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 512)))
    ;; report(ret): record the err text at ret, or "ok".
    (func $report (param $ret i32)
      (if (i32.load8_u (local.get $ret))
        (then (call $record (i32.load offset=4 (local.get $ret)) (i32.load offset=8 (local.get $ret))))
        (else (call $record (i32.const 1136) (i32.const 2)))))
    (func $call-tool (param $name i32) (param $len i32)
      (call $invoke (local.get $name) (local.get $len)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 256))
      (call $report (i32.const 256)))

    (func (export "run")
      (local $url i32) (local $url-len i32)
      (call $call-tool (i32.const 1040) (i32.const 4))
      (call $call-tool (i32.const 1056) (i32.const 4))
      (call $call-tool (i32.const 1072) (i32.const 6))
      (call $pull (i32.const 1088) (i32.const 5) (i32.const 1104) (i32.const 5) (i32.const 256))
      (call $report (i32.const 256))
      ;; the peer URL: record's answer to "peer?", else a fallback
      (local.set $url (i32.const 1184))
      (local.set $url-len (i32.const 19))
      (call $invoke (i32.const 1024) (i32.const 6)
        (i32.const 1) (i32.const 1120) (i32.const 5)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 256))
      (if (i32.eqz (i32.load8_u (i32.const 256)))
        (then (if (i32.load8_u offset=20 (i32.const 256))
          (then
            (local.set $url (i32.load offset=24 (i32.const 256)))
            (local.set $url-len (i32.load offset=28 (i32.const 256)))))))
      (call $send (local.get $url) (local.get $url-len)
        (i32.const 1152) (i32.const 5)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 1168) (i32.const 11)
        (i32.const 384))
      (call $report (i32.const 384))))
  (core instance $main (instantiate $main
    (with "libc" (instance (export "memory" (memory $memory))))
    (with "host" (instance
      (export "invoke" (func $invoke-l))
      (export "pull" (func $pull-l))
      (export "send" (func $send-l))))))

  (func $run-x (canon lift (core func $main "run")))
  (instance $capsule (export "run" (func $run-x)))
  (export "murmur:capsule/run@0.1.0" (instance $capsule))
)
