;; engine-imports: exercises import linking (semver matching, root func
;; imports), inline core instances (instances built from export lists), and
;; strings through canon lower with memory + realloc.
;;
;; Imports:  test:host/greet@0.2.6 { greet: func(name: string) -> string }
;;           log: func(msg: string)
;; Exports:  run: func(name: string) -> string
;;           calls greet(name), passes the greeting to log, returns it.
;;           test:guest/api@1.2.0 { run } (the same function).
(component
  (type $greet-iface (instance
    (export "greet" (func (param "name" string) (result string)))))
  (import "test:host/greet@0.2.6" (instance $greet (type $greet-iface)))
  (import "log" (func $log (param "msg" string)))
  (alias export $greet "greet" (func $greet-fn))

  (core module $libc
    (memory (export "memory") 1)
    (global $bump (mut i32) (i32.const 1024))
    ;; Bump allocator aligned to the requested alignment; shrinking keeps
    ;; the block, growing copies the old contents (realloc semantics).
    (func (export "realloc") (param $old i32) (param $old-size i32) (param $align i32) (param $size i32) (result i32)
      (local $p i32)
      (if (i32.and (i32.ne (local.get $old) (i32.const 0))
                   (i32.le_u (local.get $size) (local.get $old-size)))
        (then (return (local.get $old))))
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

  (core func $greet-lowered (canon lower (func $greet-fn) (memory $memory) (realloc $realloc)))
  (core func $log-lowered (canon lower (func $log) (memory $memory)))

  (core module $main
    (import "env" "memory" (memory 1))
    (import "host" "greet" (func $greet (param i32 i32 i32)))
    (import "host" "log" (func $log (param i32 i32)))
    (func (export "run") (param $ptr i32) (param $len i32) (result i32)
      (call $greet (local.get $ptr) (local.get $len) (i32.const 16))
      (call $log (i32.load (i32.const 16)) (i32.load (i32.const 20)))
      (i32.const 16)))
  (core instance $main (instantiate $main
    (with "env" (instance (export "memory" (memory $memory))))
    (with "host" (instance
      (export "greet" (func $greet-lowered))
      (export "log" (func $log-lowered))))))

  (func $run (param "name" string) (result string)
    (canon lift (core func $main "run") (memory $memory) (realloc $realloc)))
  (export "run" (func $run))
  (instance $api (export "run" (func $run)))
  (export "test:guest/api@1.2.0" (instance $api)))
