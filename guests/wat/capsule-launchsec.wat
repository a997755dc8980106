;; capsule-launchsec: the script capsule of launch's workdir-trust tests
;; (launch/mursec_test.go). Its murmur:capsule/run@0.1.0#run makes these
;; calls in order and hands each outcome to the tool "record" (an err's
;; text, else "ok"; for guide, the returned data), which appends it to
;; record.txt in the workdir:
;;
;;   1. invoke attack "copy .task.md .tools/victim/victim"  (a WASM tool
;;      overwriting a native tool's staged binary with the task text;
;;      Go's wasip1 path resolution matches a relative path against the
;;      preopen "." by prefix and strips that one character, so the dot
;;      is how wasitest-go names task.md and tools/ of its preopen)
;;   2. invoke victim "victim-ran"
;;   3. invoke swap                 (a native tool tampering on the host)
;;   4. invoke victim "victim-ran-again"
;;   5. invoke guide                (a skill: its data is recorded)
;;   6. invoke spy                  (a native tool reading mur's /proc)
;;
;; Which calls succeed depends only on the test's murmur.yaml.
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

  ;; Strings live at 1024+; return areas at 256 (a step) and 512 (record).
  ;; A result's discriminant is at +0 and an err string's (ptr, len) at
  ;; +4, +8; an ok tool-result's data option is at +20 (discriminant),
  ;; +24, +28.
  (core module $main
    (import "host" "invoke" (func $invoke (param i32 i32 i32 i32 i32 i32 i32 i32 i32)))
    (import "libc" "memory" (memory 1))
    (data (i32.const 1024) "record")           ;; 6
    (data (i32.const 1040) "attack")           ;; 6
    (data (i32.const 1056) "victim")           ;; 6
    (data (i32.const 1072) "swap")             ;; 4
    (data (i32.const 1088) "guide")            ;; 5
    (data (i32.const 1104) "spy")              ;; 3
    (data (i32.const 1136) "ok")               ;; 2
    (data (i32.const 1152) "victim-ran")       ;; 10
    (data (i32.const 1168) "victim-ran-again") ;; 16
    (data (i32.const 1200) "copy .task.md .tools/victim/victim") ;; 34
    (data (i32.const 1248) "no data")          ;; 7

    ;; record(text): invoke("record", some(text)); its own result is ignored.
    (func $record (param $ptr i32) (param $len i32)
      (call $invoke (i32.const 1024) (i32.const 6)
        (i32.const 1) (local.get $ptr) (local.get $len)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 512)))
    ;; report(): record the err text at 256, or "ok".
    (func $report
      (if (i32.load8_u (i32.const 256))
        (then (call $record (i32.load offset=4 (i32.const 256)) (i32.load offset=8 (i32.const 256))))
        (else (call $record (i32.const 1136) (i32.const 2)))))
    ;; call(name, data): invoke name with data (none when its length is 0).
    (func $call (param $name i32) (param $len i32) (param $data i32) (param $data-len i32)
      (call $invoke (local.get $name) (local.get $len)
        (i32.ne (local.get $data-len) (i32.const 0)) (local.get $data) (local.get $data-len)
        (i32.const 0) (i32.const 0) (i32.const 0)
        (i32.const 256)))

    (func (export "run")
      (call $call (i32.const 1040) (i32.const 6) (i32.const 1200) (i32.const 34))
      (call $report)
      (call $call (i32.const 1056) (i32.const 6) (i32.const 1152) (i32.const 10))
      (call $report)
      (call $call (i32.const 1072) (i32.const 4) (i32.const 0) (i32.const 0))
      (call $report)
      (call $call (i32.const 1056) (i32.const 6) (i32.const 1168) (i32.const 16))
      (call $report)
      ;; guide: its data when it answered with some, else the error
      (call $call (i32.const 1088) (i32.const 5) (i32.const 0) (i32.const 0))
      (if (i32.load8_u (i32.const 256))
        (then (call $report))
        (else (if (i32.load8_u offset=20 (i32.const 256))
          (then (call $record (i32.load offset=24 (i32.const 256)) (i32.load offset=28 (i32.const 256))))
          (else (call $record (i32.const 1248) (i32.const 7))))))
      (call $call (i32.const 1104) (i32.const 3) (i32.const 0) (i32.const 0))
      (call $report)))
  (core instance $main (instantiate $main
    (with "libc" (instance (export "memory" (memory $memory))))
    (with "host" (instance
      (export "invoke" (func $invoke-l))))))

  (func $run-x (canon lift (core func $main "run")))
  (instance $capsule (export "run" (func $run-x)))
  (export "murmur:capsule/run@0.1.0" (instance $capsule))
)
