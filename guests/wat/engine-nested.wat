;; engine-nested: nested components wired to each other and to the host.
;;
;; Imports:  test:host/greet@0.2.6 { greet: func(name: string) -> string }
;; Exports:  hello: func(name: string) -> string
;;
;; Inner component $echo exports echo(s) -> s from its own memory. Inner
;; component $hello imports "echo" and "greet", and its hello(name) returns
;; greet(echo(name)). The outer component instantiates $echo, passes its
;; export to $hello, and re-exports hello: a string crosses three memories.
(component
  (import "test:host/greet@0.2.6" (instance $host
    (export "greet" (func (param "name" string) (result string)))))

  (component $libc-user
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
    (core module $main
      (import "env" "memory" (memory 1))
      (func (export "echo") (param $ptr i32) (param $len i32) (result i32)
        (i32.store (i32.const 8) (local.get $ptr))
        (i32.store (i32.const 12) (local.get $len))
        (i32.const 8)))
    (core instance $main (instantiate $main (with "env" (instance $libc))))
    (func $echo (param "s" string) (result string)
      (canon lift (core func $main "echo")
        (memory (core memory $libc "memory")) (realloc (core func $libc "realloc"))))
    (export "echo" (func $echo)))

  (component $hello
    (import "echo" (func $echo (param "s" string) (result string)))
    (import "greet" (func $greet (param "name" string) (result string)))
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
    (core func $echo-lowered (canon lower (func $echo) (memory $memory) (realloc $realloc)))
    (core func $greet-lowered (canon lower (func $greet) (memory $memory) (realloc $realloc)))
    (core module $main
      (import "env" "memory" (memory 1))
      (import "env" "echo" (func $echo (param i32 i32 i32)))
      (import "env" "greet" (func $greet (param i32 i32 i32)))
      (func (export "hello") (param $ptr i32) (param $len i32) (result i32)
        (call $echo (local.get $ptr) (local.get $len) (i32.const 16))
        (call $greet (i32.load (i32.const 16)) (i32.load (i32.const 20)) (i32.const 24))
        (i32.const 24)))
    (core instance $main (instantiate $main
      (with "env" (instance
        (export "memory" (memory $memory))
        (export "echo" (func $echo-lowered))
        (export "greet" (func $greet-lowered))))))
    (func $hello (param "name" string) (result string)
      (canon lift (core func $main "hello") (memory $memory) (realloc $realloc)))
    (export "hello" (func $hello)))

  (instance $echo (instantiate $libc-user))
  (instance $hello (instantiate $hello
    (with "echo" (func $echo "echo"))
    (with "greet" (func $host "greet"))))
  (export "hello" (func $hello "hello")))
