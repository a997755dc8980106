;; An instance type exporting one name twice.
(component
  (import "i" (instance
    (export "f" (func))
    (export "f" (func))
  ))
)
