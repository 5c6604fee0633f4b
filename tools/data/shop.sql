-- Sample shop database for the query_database example tool.
-- Built into tools/data/shop.db by tools.database.build_database(); prices are in yuan (CNY).

CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    city TEXT NOT NULL,
    joined DATE NOT NULL
);
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    price REAL NOT NULL
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    product_id INTEGER NOT NULL REFERENCES products(id),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    ordered_on DATE NOT NULL
);

INSERT INTO customers (id, name, city, joined) VALUES
    (1, 'Li Wei', '北京', '2023-01-15'),
    (2, 'Wang Fang', '上海', '2023-02-03'),
    (3, 'Zhang Min', '西安', '2023-03-22'),
    (4, 'Liu Yang', '深圳', '2023-04-09'),
    (5, 'Chen Jing', '成都', '2023-05-30'),
    (6, 'Zhao Lei', '杭州', '2023-07-11'),
    (7, 'Anna Schmidt', '北京', '2023-08-19'),
    (8, 'Tom Baker', '上海', '2023-09-02'),
    (9, 'Huang Li', '广州', '2023-10-25'),
    (10, 'Sun Hao', '武汉', '2024-01-08');

INSERT INTO products (id, name, category, price) VALUES
    (1, 'Laptop 14', 'electronics', 5999.0),
    (2, 'Wireless mouse', 'electronics', 129.0),
    (3, 'USB-C cable', 'electronics', 39.9),
    (4, 'Green tea 250 g', 'food', 68.0),
    (5, 'Dumpling flour 5 kg', 'food', 45.5),
    (6, 'Rice cooker', 'home', 399.0),
    (7, 'Desk lamp', 'home', 159.0),
    (8, 'Notebook A5', 'office', 12.5),
    (9, 'Fountain pen', 'office', 88.0),
    (10, 'Backpack', 'travel', 259.0);

INSERT INTO orders (id, customer_id, product_id, quantity, ordered_on) VALUES
    (1, 7, 1, 1, '2024-03-05'),
    (2, 6, 10, 1, '2024-05-04'),
    (3, 1, 2, 2, '2024-05-07'),
    (4, 4, 2, 2, '2024-04-03'),
    (5, 10, 2, 1, '2024-04-02'),
    (6, 10, 1, 2, '2024-06-21'),
    (7, 1, 4, 1, '2024-05-13'),
    (8, 3, 5, 2, '2024-05-28'),
    (9, 2, 10, 1, '2024-02-18'),
    (10, 3, 2, 2, '2024-05-27'),
    (11, 4, 6, 1, '2024-05-21'),
    (12, 2, 10, 1, '2024-05-23'),
    (13, 8, 9, 2, '2024-05-07'),
    (14, 10, 8, 1, '2024-03-15'),
    (15, 3, 4, 1, '2024-03-08'),
    (16, 9, 8, 1, '2024-05-10'),
    (17, 5, 10, 1, '2024-06-15'),
    (18, 7, 3, 5, '2024-01-17'),
    (19, 8, 7, 1, '2024-03-05'),
    (20, 9, 10, 5, '2024-06-03'),
    (21, 6, 10, 2, '2024-03-11'),
    (22, 8, 2, 5, '2024-05-26'),
    (23, 8, 2, 1, '2024-01-09'),
    (24, 5, 10, 3, '2024-06-23'),
    (25, 7, 6, 1, '2024-04-10'),
    (26, 3, 10, 1, '2024-04-12'),
    (27, 4, 5, 1, '2024-04-02'),
    (28, 7, 7, 5, '2024-06-08'),
    (29, 3, 8, 2, '2024-04-03'),
    (30, 3, 7, 5, '2024-05-09'),
    (31, 7, 6, 3, '2024-05-09'),
    (32, 3, 2, 1, '2024-04-08'),
    (33, 4, 1, 2, '2024-02-08'),
    (34, 5, 5, 1, '2024-05-06'),
    (35, 9, 6, 2, '2024-02-14'),
    (36, 3, 9, 2, '2024-05-11'),
    (37, 1, 8, 5, '2024-06-22'),
    (38, 9, 7, 2, '2024-06-26'),
    (39, 2, 8, 3, '2024-04-13'),
    (40, 4, 2, 1, '2024-04-02');
