-- sample.sql — write the sample document, made by the extension itself:
-- jj_group builds it (a nested jj_group per row for the line items) and
-- jj_write writes it.  Row i depends on i alone, so the file is the same on
-- every run, and a smaller sample is the head of a larger one.
--
-- Set two parameters first, then feed this file to sqlite3 with the
-- extension loaded (tools/demo.sh does this):
--   .parameter set @n 3000                      -- rows
--   .parameter set @out 'build/demo/rows.jj'    -- where
--
-- Columns: id, user, city (8 cities), plan (4 plans), seats, price,
-- joined (a date), items (a nested table of line items: sku, qty, price;
-- NULL for every fourth row, which bought nothing).
WITH RECURSIVE
  n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @n),
  city(k, name) AS (VALUES (0, 'Oslo'), (1, 'Bergen'), (2, 'Tromsø'),
    (3, 'Stockholm'), (4, 'Göteborg'), (5, 'København'), (6, 'Helsinki'),
    (7, 'Reykjavík')),
  plan(k, name, price) AS (VALUES (0, 'free', 0.0), (1, 'basic', 4.99),
    (2, 'pro', 19.99), (3, 'team', 49.5)),
  item(j) AS (VALUES (1), (2), (3)),
  rows AS (
    SELECT i AS id,
           printf('u%04d', (i * 7919) % 1000) AS user,
           city.name AS city,
           plan.name AS plan,
           CASE plan.k WHEN 0 THEN 1 ELSE 1 + (i * 13) % 9 END AS seats,
           plan.price AS price,
           date('2023-01-01', printf('+%d days', (i * 97) % 730)) AS joined,
           (SELECT jj_group('sku', printf('sku-%03d', (i * 31 + j * 17) % 200),
                            'qty', 1 + (i + j) % 5,
                            'price:f', ((i * 7 + j * 3) % 50) + 0.99)
              FROM item WHERE j <= i % 4) AS items
      FROM n
      JOIN city ON city.k = (i * 5) % 8
      JOIN plan ON plan.k = (i * 3 + i / 7) % 4
     ORDER BY i)
SELECT jj_write(@out, jj_group('id', id, 'user', user, 'city', city,
                               'plan', plan, 'seats', seats, 'price:f', price,
                               'joined:d', joined, 'items:jj', items))
          AS bytes_written
  FROM rows;
