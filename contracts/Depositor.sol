// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function transfer(address to, uint256 value) external returns (bool);
}

/// The sandbox routing layer's entry on the source chain: pulls the deposit and logs the quote.
contract Depositor {
    address public immutable owner = msg.sender;

    event Deposited(bytes32 indexed quoteId, address indexed sender, address indexed token, uint256 amount);

    function deposit(address token, uint256 amount, bytes32 quoteId) external {
        require(IERC20(token).transferFrom(msg.sender, address(this), amount), "transfer");
        emit Deposited(quoteId, msg.sender, token, amount);
    }

    /// Expired transfers are refunded by the routing layer.
    function refund(address token, address to, uint256 amount) external {
        require(msg.sender == owner, "owner");
        require(IERC20(token).transfer(to, amount), "refund");
    }
}
