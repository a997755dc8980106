;; Nested components and nested component/instance types.
(component
  (component
    (component
      (component
        (type (component (type (instance (type (component (import "f" (func)))) (export "c" (component (type 0)))))))
      )
    )
  )
)
